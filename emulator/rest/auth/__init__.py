"""Who may call the org: SOAP and OAuth logins and logouts (:mod:`.login`) and the identity
URLs of the logged-in user (:mod:`.identity`)."""

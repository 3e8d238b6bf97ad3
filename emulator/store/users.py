"""The org's users as logins and identity resources see them.

A login names a user by ``Username`` (case-insensitive, active users only); the emulator keeps
no passwords, so any password is accepted. The identity URL, ``/services/oauth2/userinfo`` and
the SOAP login's ``userInfo`` describe the logged-in user from the same row
(Salesforce Help, "Identity URLs" and "UserInfo Endpoint").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from crmarena_sf.emulator.store.seed import ORGANIZATION_ID

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

_COLUMNS = (
    "Id",
    "Username",
    "Name",
    "Email",
    "FirstName",
    "LastName",
    "TimeZoneSidKey",
    "LanguageLocaleKey",
    "LocaleSidKey",
    "UserType",
    "IsActive",
    "LastModifiedDate",
)


@dataclass
class OrgUser:
    """What logins and identity resources say about a user."""

    id: str
    username: str
    name: str = ""
    email: str = ""
    first_name: str | None = None
    last_name: str = ""
    time_zone: str = "GMT"
    language: str = "en_US"
    locale: str = "en_US"
    user_type: str = "Standard"
    active: bool = True
    last_modified: object = None

    @property
    def organization_id(self) -> str:
        return ORGANIZATION_ID


def _select(org: Org, where: str, params: list) -> OrgUser | None:
    user = org.schema.get("User")
    if user is None:
        return None
    columns = [c for c in _COLUMNS if user.field(c) is not None]
    with org.lock:
        row = org.con.execute(
            f'SELECT {", ".join(chr(34) + c + chr(34) for c in columns)} FROM "User" WHERE {where} LIMIT 1',
            params,
        ).fetchone()
    if row is None:
        return None
    values = dict(zip(columns, row))
    return OrgUser(
        id=values["Id"],
        username=values.get("Username") or "",
        name=values.get("Name") or "",
        email=values.get("Email") or "",
        first_name=values.get("FirstName"),
        last_name=values.get("LastName") or "",
        time_zone=values.get("TimeZoneSidKey") or "GMT",
        language=values.get("LanguageLocaleKey") or "en_US",
        locale=values.get("LocaleSidKey") or "en_US",
        user_type=values.get("UserType") or "Standard",
        active=values.get("IsActive") is not False,
        last_modified=values.get("LastModifiedDate"),
    )


def user_by_id(org: Org, user_id: str) -> OrgUser:
    """The user with ``user_id`` (the admin user, or a bare stand-in when the org has no User rows)."""
    found = _select(org, '"Id" = ?', [user_id])
    if found is None and user_id != org.user_id:
        found = _select(org, '"Id" = ?', [org.user_id])
    return found or OrgUser(id=org.user_id, username="")


def login_user(org: Org, username: str, *, known_users_only: bool = False) -> OrgUser | None:
    """The active user a login names (any casing); else the admin user, or None when only known users may log in."""
    found = _select(org, 'lower("Username") = lower(?) AND coalesce("IsActive", true)', [username])
    if found is not None:
        return found
    if known_users_only and org.schema.get("User") is not None:
        return None
    admin = user_by_id(org, org.user_id)
    if not admin.username:
        return OrgUser(id=org.user_id, username=username, name=username, email=username)
    return admin

// Drives a running `crmarena-sf serve` with jsforce 3, the way its users call it, and prints one
// JSON object: step name -> what the call returned (or {"error": message}). tests/test_clients_node.py
// runs it and checks every step. Environment: INSTANCE_URL, SESSION_ID, USERNAME, NODE_PATH (jsforce).
'use strict';
const jsforce = require('jsforce');

const instanceUrl = process.env.INSTANCE_URL;
const results = {};

async function step(name, fn) {
  try {
    results[name] = await fn();
  } catch (err) {
    results[name] = { error: String(err && err.message ? err.message : err), errorCode: err && err.errorCode };
  }
}

function bulkLoad(conn, type, operation, options, records) {
  return conn.bulk.load(type, operation, options, records);
}

(async () => {
  // An access token, as `sf` or a web app hands it over.
  const token = new jsforce.Connection({ instanceUrl, accessToken: process.env.SESSION_ID, version: '62.0' });
  await step('identity_by_token', async () => {
    const me = await token.identity();
    return { user_id: me.user_id, organization_id: me.organization_id, username: me.username };
  });

  // SOAP login (jsforce's default), then the calls integration code makes.
  const conn = new jsforce.Connection({ loginUrl: instanceUrl, version: '62.0' });
  await step('soap_login', async () => conn.login(process.env.USERNAME, 'any-password'));
  await step('identity_after_login', async () => (await conn.identity()).username);

  await step('create_parent', async () =>
    conn.sobject('Product2').create({ Name: 'Trail Shoe', External_ID__c: 'P-1', IsActive: true }));
  await step('create_with_parent_reference', async () =>
    conn.sobject('PricebookEntry').create({
      Pricebook2Id: (await conn.query("SELECT Id FROM Pricebook2 WHERE IsStandard = true")).records[0].Id,
      Product2: { External_ID__c: 'P-1' },
      UnitPrice: 42,
      IsActive: true,
    }));
  await step('query_parent_reference', async () =>
    (await conn.query("SELECT Product2.Name, UnitPrice FROM PricebookEntry")).records.map((r) => [
      r.Product2.Name,
      r.UnitPrice,
    ]));

  let accountIds = [];
  await step('bulk_insert', async () => {
    const res = await bulkLoad(conn, 'Account', 'insert', {}, [
      { Name: 'Bulk One', NumberOfEmployees: 10 },
      { Name: 'Bulk Two' },
      { NumberOfEmployees: 3 },
    ]);
    accountIds = res.filter((r) => r.success).map((r) => r.id);
    return res.map((r) => ({ success: r.success, created: r.created, errors: r.errors }));
  });
  await step('bulk_update', async () =>
    (await bulkLoad(conn, 'Account', 'update', {}, [{ Id: accountIds[0], Name: 'Bulk One Updated' }])).map(
      (r) => r.success,
    ));
  await step('bulk_upsert', async () =>
    (
      await bulkLoad(conn, 'Product2', 'upsert', { extIdField: 'External_ID__c' }, [
        { External_ID__c: 'P-1', Name: 'Trail Shoe v2' },
        { External_ID__c: 'P-2', Name: 'Road Shoe' },
      ])
    ).map((r) => ({ success: r.success, created: r.created })));
  await step('bulk_query', async () => {
    const stream = await conn.bulk.query('SELECT Name, NumberOfEmployees FROM Account ORDER BY Name');
    const rows = [];
    await new Promise((resolve, reject) => {
      stream.on('record', (r) => rows.push(r));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    return rows;
  });
  await step('bulk_delete', async () =>
    (await bulkLoad(conn, 'Account', 'delete', {}, [{ Id: accountIds[1] }])).map((r) => r.success));

  await step('retrieve_many', async () =>
    (await conn.sobject('Account').retrieve(accountIds, { fields: ['Name'] })).map((r) => r && r.Name));
  await step('retrieve_many_all_fields', async () =>
    (await conn.sobject('Account').retrieve([accountIds[0]])).map((r) => r.Name));
  await step('describe_layouts', async () => (await conn.sobject('Account').layouts()).layouts.length);
  await step('compact_layouts', async () => (await conn.sobject('Account').compactLayouts()).compactLayouts[0].name);
  await step('updated', async () => {
    const now = new Date();
    const start = new Date(now.getTime() - 3600 * 1000);
    const end = new Date(now.getTime() + 120 * 1000);
    return (await conn.sobject('Account').updated(start, end)).ids.length;
  });
  await step('deleted', async () => {
    const now = new Date();
    const start = new Date(now.getTime() - 3600 * 1000);
    const end = new Date(now.getTime() + 120 * 1000);
    return (await conn.sobject('Account').deleted(start, end)).deletedRecords.map((r) => r.id);
  });
  await step('recent', async () => (await conn.recent()).length);
  await step('limits', async () => Object.keys(await conn.limits()).includes('DailyApiRequests'));
  await step('tooling_query', async () =>
    (await conn.tooling.query('SELECT Id, Status FROM SandboxProcess')).totalSize);
  await step('logout_soap', async () => {
    await conn.logout();
    return conn.accessToken === null || conn.accessToken === undefined;
  });

  // OAuth 2.0 username-password flow, then revoking the token.
  const oauth = new jsforce.Connection({
    oauth2: { loginUrl: instanceUrl, clientId: 'client-id', clientSecret: 'client-secret' },
    version: '62.0',
  });
  await step('oauth_login', async () => (await oauth.login(process.env.USERNAME, 'any-password')).organizationId);
  await step('oauth_identity', async () => (await oauth.identity()).user_id);
  await step('oauth_logout', async () => {
    const revoked = oauth.accessToken;
    await oauth.logout();
    const again = new jsforce.Connection({ instanceUrl, accessToken: revoked, version: '62.0' });
    try {
      await again.query('SELECT Id FROM Account');
      return 'still valid';
    } catch (err) {
      return err.errorCode;
    }
  });

  process.stdout.write(JSON.stringify(results));
})().catch((err) => {
  process.stdout.write(JSON.stringify({ fatal: String(err && err.stack ? err.stack : err) }));
  process.exit(1);
});

// Shared body of the fake `xcrun` and `ios` executables used by the iOS tests. It sends its argv to the
// test harness (MB_IOS_HARNESS, served by test/harness/wda/fake-tools.ts), prints what the harness answers
// and exits with its code.
import http from 'node:http';

// node:http rather than fetch: loading fetch doubles the start-up time of every fake command.
function post(url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

export async function run(tool) {
  const base = process.env.MB_IOS_HARNESS;
  if (!base) {
    process.stderr.write(`${tool}: MB_IOS_HARNESS is not set; this is the mobilebridge test harness's fake ${tool}\n`);
    process.exit(70);
  }
  // simctl hands SIMCTL_CHILD_<name> variables to the app it launches; the harness sees them too.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('SIMCTL_CHILD_')));
  const r = await post(`${base}/run`, { tool, args: process.argv.slice(2), env });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  process.exitCode = r.code;
}

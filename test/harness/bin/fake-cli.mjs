// Shared body of the fake `xcrun` and `ios` executables used by the iOS tests. It sends its argv to the
// test harness (MB_IOS_HARNESS, served by test/harness/wda/fake-tools.ts), prints what the harness answers
// and exits with its code. For `ios forward` the harness answers with a port to proxy, and this process
// becomes a TCP forward until it is killed, like go-ios's.
import http from 'node:http';
import net from 'node:net';

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
  if (r.proxy) {
    // A forward whose device was replugged stays up but never reaches it again: it accepts and drops.
    let stale = false;
    const open = new Set();
    const server = net.createServer((client) => {
      if (stale) return void client.destroy();
      open.add(client);
      client.on('close', () => open.delete(client));
      const upstream = net.connect(r.proxy.target, '127.0.0.1');
      client.pipe(upstream).pipe(client);
      const drop = () => { client.destroy(); upstream.destroy(); };
      client.on('error', drop);
      upstream.on('error', drop);
    });
    server.listen(r.proxy.listen, '127.0.0.1');
    if (r.proxy.watch) {
      const poll = setInterval(() => {
        post(`${base}/run`, { tool, args: ['__forward-alive', ...r.proxy.watch] })
          .then((a) => {
            if (a.code === 0) return;
            stale = true;
            clearInterval(poll);
            for (const c of open) c.destroy();
          })
          .catch(() => undefined);
      }, 150);
    }
    process.on('SIGTERM', () => process.exit(0));
    return;
  }
  process.exitCode = r.code;
}

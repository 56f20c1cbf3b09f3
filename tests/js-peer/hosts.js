// The test's network for peer.js, as a hosts file is for the JVM: preloaded (NODE_OPTIONS="--require ./hosts.js",
// from this folder), it sends the TCP and TLS connections to the host names listed in KAVRO_PEER_HOSTS to a local
// double, so that a cloud SDK that calls a fixed public host (Entra ID's login.microsoftonline.com, a vault's
// <name>.vault.azure.net) reaches the double unchanged:
//
//   KAVRO_PEER_HOSTS=login.microsoftonline.com=127.0.0.1:8443,kavro.vault.azure.net=127.0.0.1:8443
//
// A connection to a listed host goes to its address; to its port too when it was for 443 (the https default, which
// a test cannot bind), else to the port asked for. TLS still checks the certificate against the host name (the
// SNI and the identity check keep the name), so the double's CA must be trusted: NODE_EXTRA_CA_CERTS. Other hosts
// are untouched. Only the object forms of net.connect and tls.connect are mapped: the ones Node's http and https
// agents use.
'use strict';

const net = require('net');
const tls = require('tls');

const hosts = new Map();
for (const entry of (process.env.KAVRO_PEER_HOSTS || '').split(',').map((e) => e.trim()).filter(Boolean)) {
  const match = /^([^=\s]+)=([^:=\s]+):(\d{1,5})$/.exec(entry);
  if (!match) throw new Error(`KAVRO_PEER_HOSTS: '${entry}' is not <host>=<address>:<port>`);
  hosts.set(match[1].toLowerCase(), { address: match[2], port: Number(match[3]) });
}

function mapped(options) {
  const name = String(options.host || options.hostname || '').toLowerCase().replace(/\.$/, '');
  const target = hosts.get(name);
  if (!target) return options;
  const port = options.port === undefined || Number(options.port) === 443 ? target.port : Number(options.port);
  const { hostname, ...rest } = options;
  return { ...rest, host: target.address, port, servername: options.servername || name };
}

function patch(module, name) {
  const original = module[name];
  module[name] = function connect(...args) {
    if (args.length > 0 && args[0] !== null && typeof args[0] === 'object' && !Array.isArray(args[0])) {
      args[0] = mapped(args[0]);
    }
    return original.apply(this, args);
  };
}

if (hosts.size > 0) {
  patch(tls, 'connect');
  patch(net, 'connect');
  patch(net, 'createConnection');
}

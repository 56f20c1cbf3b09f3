#!/usr/bin/env node
// Confluent's JavaScript schema registry client (@confluentinc/schemaregistry, pinned in package.json) as a
// command-line peer for Kavro's interop tests. A Java test runs it and reads its stdout.
//
//   node peer.js register    <registryUrl> <subject> <schemaJson|@file>      -> prints the schema id
//   node peer.js serialize   <registryUrl> <topic>   <recordJson|@file> [opts] -> prints base64 of the bytes
//   node peer.js deserialize <registryUrl> <topic>   <base64>           [opts] -> prints the record as JSON
//   node peer.js cel         <expr> <messageJson> [<expr> <messageJson>...]  -> prints each CEL result as JSON,
//                                                                               one line per pair
//
// <schemaJson> is a registration body: {"schemaType"?, "schema": "<avro schema text>", "metadata"?, "ruleSet"?}.
// In records, bytes and fixed values are written {"$bytes": "<base64>"}, both ways.
// Options: --use-latest (useLatestVersion), --use-latest-with-metadata k=v[,k=v] (useLatestWithMetadata),
//          --secret S (ruleConfig.secret for the local KMS), --rule-config k=v[,k=v] (more ruleConfig entries,
//          such as a KMS driver's credentials: tenant.id, client.id, client.secret for azure-kms),
//          --id-in-header (serialize with HeaderSchemaIdSerializer: prints "<base64 body> <base64 __value_schema_id>"),
//          --header B64 (deserialize with that __value_schema_id header; the default DualSchemaIdDeserializer).
// serialize never registers (autoRegisterSchemas false): it writes with the subject's latest version, or the
// latest with the given metadata; register the schema (and its rule set) first.
// The subject name strategy is always TOPIC (<topic>-value). On failure: exit code 1, and stderr holds
// "error: <class>: <message>" (a rule failure's message names the rule).
//
//   node peer.js serve  -> one process for many commands: each stdin line is a JSON array of one command's
//                          arguments, each answer one stdout line {"exitCode":n,"stdout":"...","stderr":"..."},
//                          what a process of its own would have exited with and printed. Each command starts from
//                          the state a new process has (the rule executors registered anew, no KMS client kept),
//                          so a test can run many without Node's start-up each time. Each answer also carries
//                          "seq", the command's line number (from 1); exit code 70 means the harness failed, not
//                          the client (the reset threw, or a command left an unhandled rejection or exception).
//                          Test only: `__test break-next-reset`, `__test break-next-answer`, `__test late-failure`,
//                          `__test late-output` and `__test close-stdout` (see README.md).
'use strict';

const fs = require('fs');
const sr = require('@confluentinc/schemaregistry');

const {
  SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType, SubjectNameStrategyType, HeaderSchemaIdSerializer,
  VALUE_SCHEMA_ID_HEADER, RuleRegistry, clearKmsClients,
  CelExecutor, CelFieldExecutor, FieldEncryptionExecutor, EncryptionExecutor, JsonataExecutor, LocalKmsDriver,
  AwsKmsDriver, AzureKmsDriver,
} = sr;

// Registration is global and must come before any serde is built. The executors hold state (the DEK registry
// client, the rule config they were first configured with): `serve` registers them anew for each command.
function registerExecutors() {
  CelExecutor.register();
  CelFieldExecutor.register();
  FieldEncryptionExecutor.register();
  EncryptionExecutor.register();
  JsonataExecutor.register();
}
registerExecutors();
LocalKmsDriver.register();
// aws-kms: credentials from the environment (AWS_ACCESS_KEY_ID, ...) and the endpoint from AWS_ENDPOINT_URL_KMS,
// as the AWS SDK reads them.
AwsKmsDriver.register();
// azure-kms: credentials from --rule-config (tenant.id, client.id, client.secret), else DefaultAzureCredential;
// the vault is named by the key URL, Entra ID by AZURE_AUTHORITY_HOST (see hosts.js for a local double).
AzureKmsDriver.register();

function usage(message) {
  throw new UsageError(message + '\nusage: node peer.js register|serialize|deserialize <registryUrl> '
    + '<subject|topic> <json|@file|base64> [--use-latest] [--use-latest-with-metadata k=v,...] [--secret S]'
    + ' [--rule-config k=v,...] [--id-in-header] [--header B64]');
}

class UsageError extends Error {}

function readJson(arg, what) {
  const text = arg.startsWith('@') ? fs.readFileSync(arg.substring(1), 'utf8') : arg;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${what} is not JSON: ${e.message}`);
  }
}

function parseOptions(args) {
  const options = {};
  for (let i = 0; i < args.length; i++) {
    const name = args[i];
    const value = () => {
      if (i + 1 >= args.length) usage(`${name} needs a value`);
      return args[++i];
    };
    switch (name) {
      case '--use-latest': options.useLatest = true; break;
      case '--secret': options.secret = value(); break;
      case '--id-in-header': options.idInHeader = true; break;
      case '--header': options.header = Buffer.from(value(), 'base64'); break;
      case '--use-latest-with-metadata': options.useLatestWithMetadata = pairs(name, value()); break;
      case '--rule-config': options.ruleConfig = pairs(name, value()); break;
      default: usage(`unknown option '${name}'`);
    }
  }
  return options;
}

function pairs(option, text) {
  const out = {};
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) usage(`${option} wants k=v pairs, not '${pair}'`);
    out[pair.substring(0, eq)] = pair.substring(eq + 1);
  }
  return out;
}

// JSON -> record: {"$bytes": b64} becomes a Buffer.
function fromJson(value) {
  if (Array.isArray(value)) return value.map(fromJson);
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$bytes') return Buffer.from(value.$bytes, 'base64');
    const out = {};
    for (const k of keys) out[k] = fromJson(value[k]);
    return out;
  }
  return value;
}

// Record -> JSON: a Buffer becomes {"$bytes": b64}; avsc record instances become plain objects.
function toJson(value) {
  if (Buffer.isBuffer(value)) return { $bytes: value.toString('base64') };
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'bigint') return value.toString();
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const k of Object.keys(value)) out[k] = toJson(value[k]);
    return out;
  }
  return value;
}

function serdeConfig(options) {
  const config = { subjectNameStrategyType: SubjectNameStrategyType.TOPIC };
  if (options.secret !== undefined || options.ruleConfig) {
    config.ruleConfig = { ...options.ruleConfig };
    if (options.secret !== undefined) config.ruleConfig.secret = options.secret;
  }
  if (options.useLatest) config.useLatestVersion = true;
  if (options.useLatestWithMetadata) config.useLatestWithMetadata = options.useLatestWithMetadata;
  return config;
}

// The JS client's CelExecutor evaluates <expr> with `message` bound to <messageJson>, as a CEL rule's body:
// {"value": <result>} or, when CEL answers an error value, {"celError": "<its message>"}; "conditionFails" is
// whether the serde would fail a CONDITION rule on that result (it does only on false).
async function cel(expr, messageJson) {
  const target = { schema: '{}', schemaType: 'AVRO' };
  const message = readJson(messageJson, 'the message');
  const result = await new CelExecutor().executeRule({ target }, expr, null, { message });
  const isError = result instanceof Error || (result != null && result.constructor.name === '_CelError');
  const answer = isError ? { celError: String(result.message) } : { value: result };
  answer.conditionFails = result === false;
  return JSON.stringify(answer);
}

async function main(argv) {
  if (argv[0] === 'cel') {
    if (argv.length < 3 || argv.length % 2 !== 1) usage('cel needs <expr> <messageJson> pairs');
    const answers = [];
    for (let i = 1; i < argv.length; i += 2) answers.push(await cel(argv[i], argv[i + 1]));
    return answers.join('\n');
  }
  const [command, url, name, payload, ...rest] = argv;
  if (!command || !url || !name || payload === undefined) usage('missing arguments');
  const client = new SchemaRegistryClient({ baseURLs: [url], cacheCapacity: 1000 });
  const options = parseOptions(rest);
  switch (command) {
    case 'register': {
      const schema = readJson(payload, 'the schema');
      if (!schema.schemaType) schema.schemaType = 'AVRO';
      return String(await client.register(name, schema, false));
    }
    case 'serialize': {
      const config = { ...serdeConfig(options), autoRegisterSchemas: false };
      if (!options.useLatestWithMetadata) config.useLatestVersion = true;
      if (options.idInHeader) config.schemaIdSerializer = HeaderSchemaIdSerializer;
      const serializer = new AvroSerializer(client, SerdeType.VALUE, config);
      const record = fromJson(readJson(payload, 'the record'));
      const headers = {};
      const bytes = await serializer.serialize(name, record, headers);
      if (!options.idInHeader) return bytes.toString('base64');
      return bytes.toString('base64') + ' ' + Buffer.from(headers[VALUE_SCHEMA_ID_HEADER]).toString('base64');
    }
    case 'deserialize': {
      const deserializer = new AvroDeserializer(client, SerdeType.VALUE, serdeConfig(options));
      const headers = options.header ? { [VALUE_SCHEMA_ID_HEADER]: options.header } : undefined;
      const record = await deserializer.deserialize(name, Buffer.from(payload, 'base64'), headers);
      return JSON.stringify(toJson(record));
    }
    default:
      return usage(`unknown command '${command}'`);
  }
}

// What one command exits with and prints last: its answer on stdout, or its error on stderr.
function run(argv) {
  return main(argv).then(
    (out) => ({ exitCode: 0, stdout: out + '\n', stderr: '' }),
    (e) => ({
      exitCode: e instanceof UsageError ? 2 : 1,
      stdout: '',
      stderr: `error: ${e && e.constructor ? e.constructor.name : 'Error'}: ${e && e.message}\n`,
    }));
}

// The exit code of a serve answer when the harness, not the client, failed: the per-command reset threw, the
// command left an unhandled rejection or an uncaught exception, or its answer could not be written. JsPeer throws on
// it rather than return it.
const SERVE_FAILED = 70;

// One command per stdin line, one at a time, each from a fresh process's state; whatever the client prints while
// a command runs goes into that command's answer, as it would have gone to the process's own stdout and stderr.
// Each answer carries the command's sequence number (1 for the first line); stdout and stderr stay captured between
// commands, so that nothing but answers reaches stdout. An unhandled rejection or an uncaught exception after a
// command answered fails the next command, naming the command that ran last (and goes to stderr at once). Output
// after a command answered (Node's warnings, console.error on a later tick) goes to stderr at once, naming the
// command that ran last, and fails nothing: it is no fault of the next command's, and failing it made tests flaky.
function serve() {
  const streams = { stdout: process.stdout, stderr: process.stderr };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const answer = (seq, result) => {
    if (answerFails) {
      answerFails = false;
      throw new Error('answer broken on purpose by __test break-next-answer');
    }
    writes.stdout.call(process.stdout, JSON.stringify({ seq, exitCode: result.exitCode, stdout: result.stdout,
      stderr: result.stderr }) + '\n');
  };
  const report = (text) => writes.stderr.call(process.stderr, text);
  let current = null; // the command running: { seq, argv, printed, fail }
  let last = null; // the command that answered last, for what happens after its answer
  let late = ''; // what went wrong since the last answer, blamed on `last`
  const blame = () => (last ? `command #${last.seq} ${JSON.stringify(last.argv)}` : 'no command yet');
  const afterAnswer = (what, fails) => {
    const text = `peer.js serve: after ${blame()} answered: ${what}\n`;
    if (fails) late += text;
    report(text);
  };
  for (const name of Object.keys(streams)) {
    streams[name].write = (chunk, encoding, callback) => {
      const text = Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
      if (current) current.printed[name] += text;
      else afterAnswer(`it printed on ${name}: ${text.replace(/\n$/, '')}`, false);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (done) process.nextTick(done);
      return true;
    };
  }
  const fault = (kind) => (e) => {
    const what = `${kind}: ${e && e.stack ? e.stack : e}`;
    if (current) current.fail(new Error(what));
    else afterAnswer(what, true);
  };
  process.on('unhandledRejection', fault('unhandled rejection'));
  process.on('uncaughtException', fault('uncaught exception'));
  let resetFails = false; // test only: `__test break-next-reset`
  let answerFailsNext = false; // test only: `__test break-next-answer`
  let answerFails = false; // the command running is the one whose answer `__test break-next-answer` breaks
  const reset = () => {
    if (resetFails) {
      resetFails = false;
      throw new Error('reset broken on purpose by __test break-next-reset');
    }
    RuleRegistry.getGlobalInstance().clear();
    registerExecutors();
    clearKmsClients();
  };
  // Test-only commands, for JsPeerServeTest: they check the harness, not the client.
  const test = async (argv) => {
    switch (argv[1]) {
      case 'break-next-reset':
        resetFails = true;
        return 'ok';
      case 'break-next-answer':
        answerFailsNext = true;
        return 'ok';
      case 'late-failure':
        setImmediate(() => {
          process.stdout.write('late output\n');
          Promise.reject(new Error('late rejection'));
        });
        return 'ok';
      case 'late-output':
        setImmediate(() => {
          console.error('late warning');
          process.stdout.write('late output\n');
        });
        return 'ok';
      case 'close-stdout':
        // Ends what JsPeer reads while this process lives on: the JVM must not wait for it forever.
        require('fs').closeSync(1);
        return 'ok';
      default:
        return usage(`unknown test command '${argv[1]}'`);
    }
  };
  let seq = 0;
  let queue = Promise.resolve();
  const lines = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    const command = { seq: ++seq, argv: null, printed: { stdout: '', stderr: '' } };
    queue = queue.then(async () => {
      let argv;
      try {
        argv = JSON.parse(line);
      } catch (e) {
        argv = null;
      }
      command.argv = Array.isArray(argv) ? argv.map(String) : line;
      answerFails = answerFailsNext;
      answerFailsNext = false;
      const failed = new Promise((resolve, reject) => { command.fail = reject; });
      current = command;
      let result;
      try {
        if (late) throw new Error(late.trimEnd());
        reset();
        result = !Array.isArray(argv)
          ? { exitCode: 2, stdout: '', stderr: `error: UsageError: serve wants a JSON array of arguments a line\n` }
          : await Promise.race([command.argv[0] === '__test' ? test(command.argv).then((out) => ({
            exitCode: 0, stdout: out + '\n', stderr: '' }), (e) => {
            if (!(e instanceof UsageError)) throw e;
            return { exitCode: 2, stdout: '', stderr: `error: UsageError: ${e.message}\n` };
          }) : run(command.argv), failed]);
        result = { exitCode: result.exitCode, stdout: command.printed.stdout + result.stdout,
          stderr: command.printed.stderr + result.stderr };
      } catch (e) {
        result = { exitCode: SERVE_FAILED, stdout: command.printed.stdout,
          stderr: command.printed.stderr + `error: serve: command #${command.seq}: ${e && e.stack ? e.stack : e}\n` };
      } finally {
        current = null;
        late = '';
        last = command;
      }
      answer(command.seq, result);
    }).catch((e) => {
      // The answer could not be written (or the harness threw outside its own catch): the command is answered as
      // the harness's failure, and the queue goes on, else every later line would wait for an answer forever.
      const why = `error: serve: command #${command.seq} could not be answered: ${e && e.stack ? e.stack : e}\n`;
      report(why);
      try {
        answer(command.seq, { exitCode: SERVE_FAILED, stdout: '', stderr: why });
      } catch (again) {
        report(`error: serve: command #${command.seq}: not answered: ${again && again.stack ? again.stack : again}\n`);
      }
    });
  });
  lines.on('close', () => { queue.then(() => process.exit(0)); });
}

if (process.argv[2] === 'serve') {
  serve();
} else {
  run(process.argv.slice(2)).then((result) => {
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exitCode = result.exitCode;
  });
}

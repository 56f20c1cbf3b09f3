#!/usr/bin/env node
// Confluent's JavaScript client (@confluentinc/schemaregistry, pinned in tests/js-peer) with its HashiCorp Vault
// KMS driver, for HcVaultJsInteropTest. Run with NODE_PATH=<tests/js-peer>/node_modules.
//
//   node hcvault-peer.js serialize   <registryUrl> <topic> <recordJson> -> prints base64 of the bytes
//   node hcvault-peer.js deserialize <registryUrl> <topic> <base64>     -> prints the record as JSON
//
// The Vault token is the environment variable VAULT_TOKEN, passed as the rule config's token.id (Confluent's
// name). serialize writes with the subject's latest version (TOPIC strategy, no auto-registration). On failure:
// exit code 1 and "error: <class>: <message>" on stderr.
'use strict';

const sr = require('@confluentinc/schemaregistry');

const {
  SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType, SubjectNameStrategyType,
  FieldEncryptionExecutor, HcVaultDriver,
} = sr;

FieldEncryptionExecutor.register();
HcVaultDriver.register();

async function main([command, url, topic, payload]) {
  const client = new SchemaRegistryClient({ baseURLs: [url], cacheCapacity: 100 });
  const config = {
    subjectNameStrategyType: SubjectNameStrategyType.TOPIC,
    ruleConfig: { 'token.id': process.env.VAULT_TOKEN },
  };
  switch (command) {
    case 'serialize': {
      const serializer = new AvroSerializer(client, SerdeType.VALUE,
        { ...config, autoRegisterSchemas: false, useLatestVersion: true });
      return (await serializer.serialize(topic, JSON.parse(payload))).toString('base64');
    }
    case 'deserialize': {
      const deserializer = new AvroDeserializer(client, SerdeType.VALUE, config);
      return JSON.stringify(await deserializer.deserialize(topic, Buffer.from(payload, 'base64')));
    }
    default:
      throw new Error(`unknown command '${command}'`);
  }
}

main(process.argv.slice(2)).then(
  (out) => { process.stdout.write(out + '\n'); },
  (e) => {
    process.stderr.write(`error: ${e && e.constructor ? e.constructor.name : 'Error'}: ${e && e.message}\n`);
    process.exitCode = 1;
  });

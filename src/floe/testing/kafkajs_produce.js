#!/usr/bin/env node
// Produces the lines of stdin, one record each, to a partition of a topic with kafkajs (the
// test Kafka cluster's second independent client, kafka_cluster.h), in gzip-compressed batches.
// An empty value (or key) is a null one. With --avro SCHEMA each value is the JSON of a datum of
// the Avro schema, produced as its plain Avro binary encoding by avsc (and --key-avro the same
// for keys). Usage:
//   kafkajs_produce.js BOOTSTRAP TOPIC PARTITION [--key-delimiter C] [--header NAME=VALUE]...
//                      [--avro SCHEMA] [--key-avro SCHEMA] < records
const path = require('path');
const readline = require('readline');

const home = process.env.FLOE_PEERS_HOME || path.join(require('os').homedir(), '.cache', 'floe-peers');
const req = (m) => require(path.join(home, 'node_modules', m));
const { Kafka, logLevel, CompressionTypes } = req('kafkajs');

const [bootstrap, topic, partitionText, ...rest] = process.argv.slice(2);
const partition = Number(partitionText);
let keyDelimiter = null;
const headers = {};
let valueType = null;
let keyType = null;
for (let i = 0; i < rest.length; i += 2) {
  const value = rest[i + 1];
  if (rest[i] === '--key-delimiter') keyDelimiter = value;
  else if (rest[i] === '--header') {
    const at = value.indexOf('=');
    headers[value.slice(0, at)] = value.slice(at + 1);
  } else if (rest[i] === '--avro') valueType = req('avsc').Type.forSchema(JSON.parse(value));
  else if (rest[i] === '--key-avro') keyType = req('avsc').Type.forSchema(JSON.parse(value));
  else throw new Error('unknown option ' + rest[i]);
}

// A record's key or value: null when empty, else its text or its Avro encoding.
const encode = (text, type) => {
  if (text === '') return null;
  return type ? type.toBuffer(JSON.parse(text)) : Buffer.from(text);
};

(async () => {
  const lines = [];
  for await (const line of readline.createInterface({ input: process.stdin })) lines.push(line);
  const messages = lines.map((line) => {
    let key = '';
    let value = line;
    if (keyDelimiter !== null) {
      const at = line.indexOf(keyDelimiter);
      if (at >= 0) {
        key = line.slice(0, at);
        value = line.slice(at + 1);
      }
    }
    return { partition, key: encode(key, keyType), value: encode(value, valueType), headers };
  });
  const kafka = new Kafka({ clientId: 'floe-test', brokers: bootstrap.split(','), logLevel: logLevel.ERROR });
  const producer = kafka.producer();
  await producer.connect();
  for (let i = 0; i < messages.length; i += 10000) {
    await producer.send({ topic, messages: messages.slice(i, i + 10000), acks: -1, compression: CompressionTypes.GZIP });
  }
  await producer.disconnect();
})().catch((e) => {
  console.error(String(e));
  process.exit(1);
});

#!/usr/bin/env bash
# Runs Floe on an embedded default stack: a local Kafka broker, a Kafka Connect worker with the
# plugin installed from the built zip, a schema registry and a JDBC catalog on SQLite with a local
# warehouse folder. Deploys config-examples/quickstart.json, produces sample Avro events, prints the
# table, and stops everything. Needs Java 17+ and Maven.
set -euo pipefail
cd "$(dirname "$0")"
work="$PWD/quickstart-work"

# One reactor build of what the quickstart runs, nothing installed: the connector, the plugin zip,
# the Kafka distributions the stack starts from, and the integration tests' classes (the stack and
# the quickstart's main class); no tests, no checks. The integration-tests module writes where
# Maven resolved the zip (target/plugin-zip.path) and its class path (target/quickstart.classpath).
echo "Building the plugin zip and the quickstart (mvn -Pquick,quickstart -Dfloe.quickstart -pl integration-tests -am package) ..."
mvn -B -q -Pquick,quickstart -Dfloe.quickstart -pl integration-tests -am package

exec java -Xmx1g \
  -Dfloe.plugin.zip="$(cat integration-tests/target/plugin-zip.path)" \
  -Dfloe.kafka.runtimes="$PWD/integration-tests/runtimes" \
  -Dfloe.config.examples="$PWD/config-examples" \
  -Dfloe.it.work="$PWD/integration-tests/target/it-work" \
  -Dlog4j2.configurationFile=integration-tests/src/test/resources/quickstart-log4j2.properties \
  -cp "integration-tests/target/test-classes:$(cat integration-tests/target/quickstart.classpath)" \
  io.floe.it.quickstart.Quickstart "$work"

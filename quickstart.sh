#!/usr/bin/env bash
# Runs Floe on an embedded default stack: a local Kafka broker, a Kafka Connect worker with the
# plugin installed from the built zip, a schema registry and a JDBC catalog on SQLite with a local
# warehouse folder. Deploys config-examples/quickstart.json, produces sample Avro events, prints the
# table, and stops everything. Needs Java 17+ and Maven.
set -euo pipefail
cd "$(dirname "$0")"
work="$PWD/quickstart-work"

echo "Building the plugin zip (mvn -Pquick install) ..."
mvn -B -q -Pquick install

cp_file=integration-tests/target/quickstart.classpath
mvn -B -q -pl integration-tests dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/quickstart.classpath

version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
exec java -Xmx1g \
  -Dfloe.plugin.zip="$PWD/packaging/target/floe-iceberg-sink-$version.zip" \
  -Dfloe.kafka.runtimes="$PWD/integration-tests/runtimes" \
  -Dfloe.config.examples="$PWD/config-examples" \
  -Dfloe.it.work="$PWD/integration-tests/target/it-work" \
  -Dlog4j2.configurationFile=integration-tests/src/test/resources/quickstart-log4j2.properties \
  -cp "integration-tests/target/test-classes:$(cat "$cp_file")" \
  io.floe.it.quickstart.Quickstart "$work"

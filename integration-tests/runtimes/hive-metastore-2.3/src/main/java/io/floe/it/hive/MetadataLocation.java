/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.hive;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.Table;

/**
 * Prints what a metastore holds of an Iceberg table, as a Hive client reads it: its table type and
 * the {@code metadata_location} parameter, the pointer every HiveCatalog commit swaps. Arguments:
 * the metastore's {@code thrift://} URI, the database and the table. A missing table prints {@code
 * table_type=none}.
 */
public final class MetadataLocation {
  private MetadataLocation() {}

  public static void main(String[] args) throws Exception {
    HiveConf conf = new HiveConf(new Configuration(false), MetadataLocation.class);
    conf.set(HiveConf.ConfVars.METASTOREURIS.varname, args[0]);
    HiveMetaStoreClient client = new HiveMetaStoreClient(conf);
    try {
      Table table;
      try {
        table = client.getTable(args[1], args[2]);
      } catch (NoSuchObjectException e) {
        System.out.println("table_type=none");
        return;
      }
      Map<String, String> parameters = table.getParameters();
      System.out.println("table_type=" + parameters.get("table_type"));
      System.out.println("metadata_location=" + parameters.get("metadata_location"));
    } finally {
      client.close();
    }
  }
}

/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import io.floe.connect.config.CatalogKeys;
import io.floe.connect.config.FloeSinkConfig;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The Hadoop configuration handed to the catalog and, through it, to FileIOs that take one: empty
 * (no Hadoop defaults read from the class path), with the site files of {@code
 * iceberg.hadoop-conf-dir} and then the {@code iceberg.hadoop.*} properties, as the Apache Iceberg
 * sink builds it.
 */
final class HadoopConf {
  /** The files read from the directory, those present, in this order. */
  static final List<String> SITE_FILES = List.of("core-site.xml", "hdfs-site.xml", "hive-site.xml");

  private HadoopConf() {}

  /**
   * The configuration of {@code config}, its files read now.
   *
   * @throws ConnectException if the directory does not exist or a site file cannot be read
   */
  static Configuration of(FloeSinkConfig config) {
    Configuration conf = new Configuration(false);
    config.hadoopConfDir().ifPresent(dir -> addSiteFiles(conf, dir));
    config.hadoopProperties().forEach(conf::set);
    return conf;
  }

  private static void addSiteFiles(Configuration conf, String dir) {
    Path directory = Path.of(dir);
    if (!Files.isDirectory(directory)) {
      throw new ConnectException(
          CatalogKeys.HADOOP_CONF_DIR
              + " names "
              + dir
              + ", which is not a directory on this worker. Every worker needs the Hadoop"
              + " configuration files there, or unset the key.");
    }
    for (String name : SITE_FILES) {
      Path file = directory.resolve(name);
      if (Files.isRegularFile(file)) {
        try {
          conf.addResource(file.toUri().toURL());
        } catch (MalformedURLException e) {
          throw new ConnectException("Cannot read the Hadoop configuration file " + file, e);
        }
      }
    }
    try {
      conf.get("fs.defaultFS"); // reading any key reads the files now: a malformed one fails here
    } catch (RuntimeException e) {
      throw new ConnectException(
          "Cannot read the Hadoop configuration files in "
              + dir
              + " ("
              + CatalogKeys.HADOOP_CONF_DIR
              + "): "
              + CatalogLoader.rootCauseMessage(e),
          e);
    }
  }
}

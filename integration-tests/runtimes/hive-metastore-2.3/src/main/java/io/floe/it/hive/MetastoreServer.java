/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.hive;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.IHMSHandler;
import org.apache.hadoop.hive.metastore.RetryingHMSHandler;
import org.apache.hadoop.hive.metastore.TSetIpAddressProcessor;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.txn.TxnDbUtil;
import org.apache.hadoop.hive.metastore.txn.TxnStore;
import org.apache.hadoop.hive.metastore.txn.TxnUtils;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportFactory;

/**
 * A Hive Metastore on an embedded Derby database in {@code <dir>/metastore_db}, serving Thrift on
 * 127.0.0.1 only (Hive's own {@code HiveMetaStore.main} binds every interface). The metadata tables
 * are created by DataNucleus on first use and the transaction tables, which the lock API needs, by
 * Hive's {@code TxnDbUtil}. Once it accepts connections it writes its port to {@code <dir>/port};
 * it runs until killed.
 *
 * <p>It times out the locks of clients that stopped heartbeating (a client killed while it held a
 * table's lock) after {@value #LOCK_TIMEOUT_S} s, checked every {@value #REAPER_INTERVAL_S} s: what
 * a production metastore's housekeeping does ({@code AcidHouseKeeperService}, run where {@code
 * hive.compactor.initiator.on} is true, after {@code hive.txn.timeout}, 300 s by default), which a
 * metastore alone, without Hive's query engine on its classpath, cannot start.
 *
 * <p>Arguments: the directory, the warehouse root (a {@code file:} URI) under which databases
 * created without a location are put, the seconds after which a lock nobody heartbeats is timed
 * out, and the databases to create before it serves.
 */
public final class MetastoreServer {
  private MetastoreServer() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]).toAbsolutePath();
    String warehouse = args[1];
    int lockTimeoutSeconds = Integer.parseInt(args[2]);
    System.setProperty("derby.system.home", dir.toString());
    System.setProperty("derby.stream.error.file", dir.resolve("derby.log").toString());

    HiveConf conf = new HiveConf(new Configuration(false), MetastoreServer.class);
    conf.set(
        HiveConf.ConfVars.METASTORECONNECTURLKEY.varname,
        "jdbc:derby:;databaseName=" + dir.resolve("metastore_db") + ";create=true");
    conf.set(HiveConf.ConfVars.METASTOREWAREHOUSE.varname, warehouse);
    conf.set("datanucleus.schema.autoCreateAll", "true");
    conf.set(HiveConf.ConfVars.METASTORE_SCHEMA_VERIFICATION.varname, "false");
    conf.set(HiveConf.ConfVars.METASTORE_TRY_DIRECT_SQL.varname, "false");
    // Hive's default evaluates partition filters with hive-exec, which a metastore alone lacks
    conf.set(
        HiveConf.ConfVars.METASTORE_EXPRESSION_PROXY_CLASS.varname,
        "org.apache.hadoop.hive.metastore.DefaultPartitionExpressionProxy");
    // the lock API lives in the transaction tables, which the JDO schema does not hold
    TxnDbUtil.setConfValues(conf);
    TxnDbUtil.prepDb(conf);
    conf.set(HiveConf.ConfVars.HIVE_TXN_TIMEOUT.varname, lockTimeoutSeconds + "s");
    TxnStore locks = TxnUtils.getTxnStore(conf);
    ScheduledExecutorService reaper =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "lock-reaper");
              thread.setDaemon(true);
              return thread;
            });
    reaper.scheduleWithFixedDelay(locks::performTimeOuts, 1, 1, TimeUnit.SECONDS);

    HiveMetaStore.HMSHandler base = new HiveMetaStore.HMSHandler("floe-test-metastore", conf);
    IHMSHandler handler = RetryingHMSHandler.getProxy(conf, base, false);
    for (String database : List.of(args).subList(3, args.length)) {
      handler.create_database(new Database(database, null, null, null));
    }
    TServerSocket socket =
        new TServerSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    TThreadPoolServer server =
        new TThreadPoolServer(
            new TThreadPoolServer.Args(socket)
                .processor(new TSetIpAddressProcessor<>(handler))
                .transportFactory(new TTransportFactory())
                .protocolFactory(new TBinaryProtocol.Factory())
                .minWorkerThreads(4)
                .maxWorkerThreads(64));
    int port = socket.getServerSocket().getLocalPort();
    Path tmp = dir.resolve("port.tmp");
    Files.writeString(tmp, Integer.toString(port), StandardCharsets.UTF_8);
    Files.move(tmp, dir.resolve("port"), StandardCopyOption.ATOMIC_MOVE);
    System.out.println("Hive Metastore serving on 127.0.0.1:" + port);
    server.serve();
  }
}

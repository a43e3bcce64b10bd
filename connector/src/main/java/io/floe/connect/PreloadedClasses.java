/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads, when the first task of a worker starts, the classes that a task's first hand-over would
 * otherwise load some seconds into the stream, after the JIT has compiled the write path.
 *
 * <p>The JIT compiles a call as a direct one when only one implementation of the callee is loaded
 * (Avro's decoder has one byte source, one {@code GenericData}; Jackson one parser; Iceberg one
 * {@code FileAppender}; Parquet one buffer allocator), and throws that code away when a class
 * loaded later adds a second. The first hand-over loads them: the manifests' Avro writer and
 * reader, Parquet's column indexes and allocator at the first close. Measured on a worker (JIT log,
 * one Avro stream of 4,000,000 records), that threw away the compiled converter and write path
 * right after the first commit and compiled them again. Loaded here, before any record, the code is
 * compiled once, knowing every implementation.
 *
 * <p>Each class is loaded and initialized as its first use would (the JIT counts a class once it is
 * linked); none of them does more in its static initializer than build constants. A name this build
 * of the plugin does not have is skipped ({@code PreloadedClassesTest} holds the list to the
 * versions we ship).
 */
final class PreloadedClasses {
  private static final Logger LOG = LoggerFactory.getLogger(PreloadedClasses.class);
  private static final AtomicBoolean LOADED = new AtomicBoolean();

  /** Each a second implementation of a type the write path calls, loaded by the first hand-over. */
  static final List<String> NAMES =
      List.of(
          // Avro: the manifests' reader and writer, the control topic's events
          "org.apache.avro.io.DirectBinaryDecoder",
          "org.apache.avro.io.BinaryDecoder$InputStreamByteSource",
          "org.apache.avro.specific.SpecificData",
          "org.apache.avro.Conversions$DecimalConversion",
          "org.apache.avro.file.SyncableFileOutputStream",
          "org.apache.avro.util.NonCopyingByteArrayOutputStream",
          "org.apache.iceberg.avro.UUIDConversion",
          // Iceberg: the manifest writers are file appenders too
          "org.apache.iceberg.ManifestWriter",
          "org.apache.iceberg.ManifestWriter$V1Writer",
          "org.apache.iceberg.ManifestWriter$V2Writer",
          "org.apache.iceberg.ManifestWriter$V3Writer",
          "org.apache.iceberg.ManifestWriter$V2DeleteWriter",
          "org.apache.iceberg.ManifestWriter$V3DeleteWriter",
          // Jackson: the token buffer Iceberg reads its JSON through is a second parser, beside
          // the one Floe's JSON converter reads records with
          "com.fasterxml.jackson.databind.util.TokenBuffer$Parser",
          "com.fasterxml.jackson.core.json.JsonWriteContext",
          "com.fasterxml.jackson.databind.ObjectReader",
          // the data file's metrics read strings through a char buffer
          "java.nio.StringCharBuffer",
          // Parquet, at a file's first close: its allocator, column and offset indexes
          "org.apache.parquet.bytes.ReusingByteBufferAllocator",
          "shaded.parquet.it.unimi.dsi.fastutil.booleans.BooleanLists$EmptyList",
          "shaded.parquet.it.unimi.dsi.fastutil.booleans.BooleanLists$UnmodifiableList",
          "shaded.parquet.it.unimi.dsi.fastutil.booleans.BooleanLists$UnmodifiableRandomAccessList",
          "shaded.parquet.it.unimi.dsi.fastutil.longs.LongLists$EmptyList",
          "shaded.parquet.it.unimi.dsi.fastutil.longs.LongLists$UnmodifiableList",
          "shaded.parquet.it.unimi.dsi.fastutil.longs.LongLists$UnmodifiableRandomAccessList",
          "shaded.parquet.it.unimi.dsi.fastutil.longs.LongImmutableList",
          "shaded.parquet.it.unimi.dsi.fastutil.ints.Int2IntLinkedOpenHashMap$KeyIterator",
          "shaded.parquet.it.unimi.dsi.fastutil.objects.Object2IntLinkedOpenHashMap$KeyIterator");

  private PreloadedClasses() {}

  /** Loads the classes once per worker; later calls return at once. */
  static void loadOnce() {
    if (LOADED.compareAndSet(false, true)) {
      long started = System.nanoTime();
      int loaded = load(PreloadedClasses.class.getClassLoader());
      LOG.debug(
          "Loaded {} of {} classes ahead of the first hand-over in {} ms",
          loaded,
          NAMES.size(),
          (System.nanoTime() - started) / 1_000_000);
    }
  }

  /**
   * @return how many of {@link #NAMES} {@code loader} found
   */
  static int load(ClassLoader loader) {
    int loaded = 0;
    for (String name : NAMES) {
      try {
        Class.forName(name, true, loader);
        loaded++;
      } catch (ClassNotFoundException | LinkageError e) {
        LOG.debug("Class {} not preloaded: {}", name, e.toString());
      }
    }
    return loaded;
  }
}

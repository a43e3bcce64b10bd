/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The write room: Iceberg rows in, finished data files out.
 *
 * <p>A task has one {@link io.floe.connect.write.WriterPool}; it holds a {@link
 * io.floe.connect.write.TableWriter} per table. A table writer fans rows out by table partition and
 * by source partition, each to an Iceberg {@code RollingDataWriter} made by Iceberg's {@code
 * GenericFileWriterFactory}, which picks the format ({@code write.format.default}), rolls at {@code
 * write.target-file-size-bytes} and applies the table's and the connector's write properties. Once
 * per commit cycle {@link io.floe.connect.write.WriterPool#complete()} closes every file and hands
 * over {@link io.floe.connect.write.WrittenFiles}: the data files of a table and, per source
 * partition, the offsets and the latest timestamp they hold.
 *
 * <p><b>Memory.</b> The pool estimates the heap of every open file ({@code MemoryModel}: the
 * appender's length, bounded by the row-group size, plus the compressor buffers, column writers and
 * first-page dictionaries that the length does not show) and closes the least recently written
 * files when the estimate passes the budget or the open files pass their limit ({@link
 * io.floe.connect.write.WriterPoolOptions}). A closed file's data stays pending for the next
 * hand-over, so nothing is lost: the next row of that partition opens a new file.
 *
 * <p><b>Revocation.</b> By default ({@link
 * io.floe.connect.write.WriterPoolOptions#shareFilesAcrossSourcePartitions() shared files}) a task
 * writes one file per table partition, as Iceberg's fan-out writers do; revoking a partition drops
 * every unreported file it shares, so the partitions sharing them (in any table, transitively) lose
 * their unreported rows too, and {@link io.floe.connect.write.WriterPool#abandon} returns them to
 * be rewound. With {@code iceberg.tables.writer.file-per-source-partition} a file holds the rows of
 * one source partition only, so {@code abandon} drops exactly the revoked partitions' unreported
 * files (and deletes them, best effort) while the other partitions go on, at the price of a file
 * per source partition and table partition in each commit.
 *
 * <p><b>Names.</b> Every file is named by Iceberg's {@code OutputFileFactory} with an operation id
 * (a random UUID) of the writer that writes it, and is created through {@link
 * io.floe.connect.files.NewFilesOnly}, which refuses to replace an existing file.
 *
 * <p><b>Failures.</b> A row that fails to write may leave its file unusable; the pool then refuses
 * further writes and hand-overs until its files are abandoned.
 *
 * <p><b>Threads.</b> Nothing here is thread-safe: a task's writers are used from the task thread
 * only.
 */
package io.floe.connect.write;

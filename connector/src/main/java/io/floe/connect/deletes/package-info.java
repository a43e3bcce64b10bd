/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Upsert mode's commit engine: retiring the stored rows of keys and adding their new images in one
 * Iceberg commit per table and cycle. The coordinator is the only writer of deletes.
 *
 * <p><b>Locating.</b> {@link io.floe.connect.deletes.KeyLocator} finds every live row holding a
 * retired key ({@link io.floe.connect.deletes.RetiredKeys}) in the snapshot the commit will be
 * validated from, by a scan pruned by the keys: partitions and column bounds rule files out, and
 * only the key columns and row positions of the rest are read, with each file's deletes applied.
 * For random keys, which column bounds cannot rule out, a table may have a key index on the
 * coordinator ({@link io.floe.connect.deletes.TableKeyIndex}): the rows, by data file and position,
 * that hold each key's 128-bit hash, so that no data file is read, only the deletes of those the
 * key's rows are in. It never leaves out a live row of a key, and when it cannot serve the pruned
 * scan does the work.
 *
 * <p><b>Deleting.</b> {@link io.floe.connect.deletes.DeleteWriter} writes deletion vectors on
 * format v3 (one per data file, merged with the file's previous vector, which the commit removes)
 * and position delete files on v2, each in its data file's spec and partition; never equality
 * deletes. Files get names of their own and are created through {@link
 * io.floe.connect.files.NewFilesOnly}.
 *
 * <p><b>Committing.</b> {@link io.floe.connect.deletes.UpsertDelta} fills one {@code RowDelta}: new
 * data files, new deletes, removed vectors, validated from the base snapshot. {@link
 * io.floe.connect.deletes.UpsertCommit} runs locate → write → commit and, when a commit that landed
 * meanwhile conflicts, does it all again from the new snapshot, deleting the files of the failed
 * attempt (but never after an unknown commit outcome).
 *
 * <p>Nothing here uses Kafka or Connect types; nothing is thread-safe.
 */
package io.floe.connect.deletes;

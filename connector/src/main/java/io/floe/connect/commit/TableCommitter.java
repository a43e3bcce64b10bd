/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.branch.CommitBranch;
import io.floe.connect.branch.CommitBranchException;
import io.floe.connect.contract.Contract;
import io.floe.connect.control.ChangeSource;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.EventManifest;
import io.floe.connect.deletes.KeyIndexSettings;
import io.floe.connect.deletes.KeyIndexes;
import io.floe.connect.deletes.StagedUpsert;
import io.floe.connect.deletes.UpsertCommit;
import io.floe.connect.deletes.WrittenDeletes;
import io.floe.connect.maintain.Marks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.BaseTransaction;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a cycle's pending manifests to their tables (ARCHITECTURE.md, "A cycle"), once per
 * physical table: all tables in one atomic multi-table commit when the catalog is a REST catalog,
 * upsert tables included, otherwise one by one.
 *
 * <p>Each table's commits go to its commit branch ({@link CommitBranch}: main unless configured
 * otherwise), and everything a commit reads of the table is read from that branch.
 *
 * <p>Before committing a table it reads the table's last control-topic position of this connector
 * from its snapshots; events below it are in the table already and are skipped (ARCHITECTURE.md,
 * "Replays are skipped"). The commit validates that no other commit of this connector landed since
 * that read (a zombie coordinator), so the same manifest can never be committed twice, even when
 * two coordinators race. Nothing here ever deletes a file: after an ambiguous commit a retry simply
 * reads the position again.
 */
final class TableCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(TableCommitter.class);

  /** How often an upsert commit locates its keys again after a conflicting commit. */
  private static final int UPSERT_ATTEMPTS = 3;

  private final Catalog catalog;
  private final String groupId;
  private final String connectorName;
  private final ControlTopic controlTopic;
  private final KeyIndexes keyIndexes;
  private final Function<String, CommitBranch> branches;
  private final Function<String, Optional<Contract>> contracts;
  private final ContractMarks contractMarks = new ContractMarks();
  private final Map<String, CommitProfile.Profile> profiles = new ConcurrentHashMap<>();

  private final ExecutorService readers;

  /**
   * @param keyIndex which upsert tables get a key index, kept across cycles, and its budget
   * @param branches the branch each table (by its configured name) is committed to
   * @param contracts each table's contract (by its configured name), whose lineage and profile its
   *     commits carry
   * @param readers the threads an upsert commit and a key index plan, read and validate on
   */
  TableCommitter(
      Catalog catalog,
      String groupId,
      String connectorName,
      ControlTopic controlTopic,
      KeyIndexSettings keyIndex,
      Function<String, CommitBranch> branches,
      Function<String, Optional<Contract>> contracts,
      ExecutorService readers) {
    this.readers = readers;
    this.branches = branches;
    this.contracts = contracts;
    this.catalog = catalog;
    this.groupId = groupId;
    this.connectorName = connectorName;
    this.controlTopic = controlTopic;
    this.keyIndexes = new KeyIndexes(keyIndex, readers);
  }

  /**
   * What one cycle commits.
   *
   * @param commitId the cycle
   * @param events the pending events by table
   * @param controlPosition the control-topic position every pending event is below
   * @param sourceOffsets the newest source offsets of the answers whose data the cycle commits
   * @param answeredWatermarkMs the watermark of the partitions that answered (CycleTracker)
   * @param partial whether the cycle timed out before every source partition answered
   */
  record Cycle(
      UUID commitId,
      Map<String, List<PendingEvent>> events,
      Map<Integer, Long> controlPosition,
      Map<TopicPartition, Long> sourceOffsets,
      OptionalLong answeredWatermarkMs,
      boolean partial) {

    /** The cycle's watermark: a complete cycle's, none for a partial one. */
    OptionalLong validThroughMs() {
      return partial ? OptionalLong.empty() : answeredWatermarkMs;
    }
  }

  /**
   * The tables committed by a call.
   *
   * @param committed every table now holding its events, by name, with the new snapshot (null when
   *     nothing was left to commit)
   * @param failures the tables that failed, with the cause
   */
  record Outcome(Map<String, TableResult> committed, Map<String, RuntimeException> failures) {}

  /**
   * A table's part of a commit.
   *
   * @param snapshot the new snapshot, null if nothing was committed
   * @param validThroughMs the table's watermark after the commit, null if it has none
   * @param previousSourceOffsets the source offsets of the table's previous commit of this
   *     connector, where the ranges of this one start
   * @param skipped pending manifests the table already held (handed over again after a restart or a
   *     retried commit), which were not committed again
   */
  record TableResult(
      Snapshot snapshot,
      int manifests,
      long files,
      long records,
      long bytes,
      Long validThroughMs,
      Map<TopicPartition, Long> previousSourceOffsets,
      int skipped) {

    static TableResult nothing() {
      return new TableResult(null, 0, 0, 0, 0, null, Map.of(), 0);
    }

    TableResult skipping(int manifests) {
      return new TableResult(
          snapshot,
          this.manifests,
          files,
          records,
          bytes,
          validThroughMs,
          previousSourceOffsets,
          manifests);
    }
  }

  /**
   * A prepared table commit: the fresh table, the branch it is committed to, the events still to
   * commit, the base mark, and the branch's head when they were checked against it (null if it had
   * none).
   */
  private record Prepared(
      String name,
      Table table,
      CommitBranch branch,
      List<PendingEvent> events,
      Optional<CommitMarks.Mark> base,
      Long checkedAt,
      int skipped) {

    /** This commit with the events of another name of the same table, each manifest once. */
    Prepared with(Prepared other) {
      List<PendingEvent> more = other.events();
      List<PendingEvent> all = new ArrayList<>(events);
      Set<String> manifests = new HashSet<>();
      all.forEach(event -> manifests.add(event.event().manifestLocation()));
      for (PendingEvent event : more) {
        if (manifests.add(event.event().manifestLocation())) {
          all.add(event);
        }
      }
      return new Prepared(name, table, branch, all, base, checkedAt, skipped + other.skipped());
    }
  }

  /**
   * Every file that {@code events} name (their manifests and the files those list): files handed
   * over and not committed yet, which no maintenance may take for orphans.
   */
  Set<String> filesOf(List<PendingEvent> events) {
    Map<String, List<PendingEvent>> byTable = new TreeMap<>();
    events.forEach(e -> byTable.computeIfAbsent(e.event().table(), t -> new ArrayList<>()).add(e));
    Set<String> files = new HashSet<>();
    byTable.forEach(
        (name, tableEvents) ->
            files.addAll(
                UpsertEvents.fileLocations(
                    catalog.loadTable(TableIdentifier.parse(name)), tableEvents)));
    return files;
  }

  /**
   * The profile of the table's last prepared commit, taken once: read after the commit landed, it
   * is that commit's.
   */
  Optional<CommitProfile.Profile> takeProfile(String table) {
    return Optional.ofNullable(profiles.remove(table));
  }

  /** The table's last commit of this connector to its commit branch, if it has one. */
  Optional<CommitMarks.Mark> lastCommit(String table) {
    return CommitMarks.latest(
        catalog.loadTable(TableIdentifier.parse(table)), groupId, branches.apply(table));
  }

  /**
   * Commits the cycle's tables, one commit per physical table: two route names a case-insensitive
   * catalog resolves to one table ({@code db.Orders} and {@code db.orders}) are committed together
   * under the first, as both were checked against the same mark; the second name is reported as
   * committed (or failed) with it.
   */
  Outcome commit(Cycle cycle) {
    Map<String, String> aliases = new TreeMap<>();
    Map<String, TableResult> committed = new LinkedHashMap<>();
    Map<String, RuntimeException> failures = new LinkedHashMap<>();
    List<Prepared> prepared = new ArrayList<>();
    Map<UUID, Integer> byUuid = new HashMap<>();
    for (Map.Entry<String, List<PendingEvent>> entry : new TreeMap<>(cycle.events()).entrySet()) {
      try {
        Prepared table = prepare(entry.getKey(), entry.getValue());
        Integer same = byUuid.get(table.table().uuid());
        if (same != null) {
          Prepared first = prepared.get(same);
          if (!first.branch().equals(table.branch())) {
            throw new CommitBranchException(
                "Tables "
                    + first.name()
                    + " and "
                    + entry.getKey()
                    + " are one table in the catalog (uuid "
                    + table.table().uuid()
                    + ") but are configured to commit to branches "
                    + first.branch()
                    + " and "
                    + table.branch()
                    + ": give both names the same iceberg.table.<table>.commit-branch, or route"
                    + " records to one spelling of the name");
          }
          LOG.warn(
              "Tables {} and {} are one table in the catalog (uuid {}): their data is committed"
                  + " together as {}. Route records to one spelling of the name.",
              first.name(),
              entry.getKey(),
              table.table().uuid(),
              first.name());
          prepared.set(same, first.with(table));
          aliases.put(entry.getKey(), first.name());
          continue;
        }
        byUuid.put(table.table().uuid(), prepared.size());
        prepared.add(table);
      } catch (RuntimeException e) {
        failures.put(entry.getKey(), e);
      }
    }
    List<Prepared> nothingToDo =
        prepared.stream().filter(table -> table.events().isEmpty()).toList();
    prepared.removeAll(nothingToDo);
    nothingToDo.forEach(table -> committed.put(table.name(), TableResult.nothing()));
    List<Prepared> all = new ArrayList<>(prepared);
    all.addAll(nothingToDo);
    Outcome outcome = commitPrepared(cycle, prepared, committed, failures);
    for (Prepared table : all) {
      if (table.skipped() > 0) {
        outcome.committed().computeIfPresent(table.name(), (n, r) -> r.skipping(table.skipped()));
      }
    }
    aliases.forEach(
        (alias, name) -> {
          if (outcome.committed().containsKey(name)) {
            outcome.committed().put(alias, TableResult.nothing());
          } else if (outcome.failures().containsKey(name)) {
            outcome.failures().put(alias, outcome.failures().get(name));
          }
        });
    return outcome;
  }

  private Outcome commitPrepared(
      Cycle cycle,
      List<Prepared> prepared,
      Map<String, TableResult> committed,
      Map<String, RuntimeException> failures) {
    if (catalog instanceof RESTCatalog && !failures.isEmpty() && !prepared.isEmpty()) {
      // all of the cycle's tables or none: those ready wait for the ones that failed
      RuntimeException cause = failures.values().iterator().next();
      prepared.forEach(table -> failures.put(table.name(), cause));
      return new Outcome(committed, failures);
    }
    if (catalog instanceof RESTCatalog rest && prepared.size() > 1) {
      try {
        committed.putAll(commitAtomically(rest, prepared, cycle));
      } catch (RuntimeException e) {
        prepared.forEach(table -> failures.put(table.name(), e));
      }
      return new Outcome(committed, failures);
    }
    for (Prepared table : prepared) {
      try {
        committed.put(table.name(), commitOne(table, cycle));
      } catch (RuntimeException e) {
        failures.put(table.name(), e);
      }
    }
    return new Outcome(committed, failures);
  }

  private Prepared prepare(String name, List<PendingEvent> events) {
    Table table = catalog.loadTable(TableIdentifier.parse(name));
    CommitBranch branch = branches.apply(name);
    Snapshot current = branch.head(table);
    Optional<CommitMarks.Mark> base = CommitMarks.latest(table, groupId, branch);
    if (base.isPresent() && !base.get().topicId().equals(controlTopic.id().toString())) {
      throw new ControlTopicChangedException(name, controlTopic, base.get().topicId());
    }
    List<PendingEvent> remaining = new ArrayList<>();
    Set<String> manifests = new HashSet<>();
    for (PendingEvent event : events) {
      if (event.event().tableUuid() != null && !event.event().tableUuid().equals(table.uuid())) {
        LOG.error(
            "Table {} was dropped and created again while data files were written for it (uuid"
                + " {}, now {}): the {} rows of manifest {} belong to the dropped table and are not"
                + " committed to the new one",
            name,
            event.event().tableUuid(),
            table.uuid(),
            event.event().recordCount(),
            event.event().manifestLocation());
        continue;
      }
      Long position = base.map(mark -> mark.offsets().get(event.controlPartition())).orElse(null);
      boolean alreadyIn = position != null && event.controlOffset() < position;
      if (!alreadyIn && manifests.add(event.event().manifestLocation())) {
        remaining.add(event);
      }
    }
    int skipped = 0;
    if (remaining.size() < events.size()) {
      skipped = events.size() - remaining.size();
      LOG.info(
          "Table {}: {} of {} pending manifests are already committed (control position {}),"
              + " skipping them",
          name,
          skipped,
          events.size(),
          base.map(CommitMarks.Mark::offsets).orElse(Map.of()));
    }
    return new Prepared(
        name,
        table,
        branch,
        remaining,
        base,
        current == null ? null : current.snapshotId(),
        skipped);
  }

  private TableResult commitOne(Prepared prepared, Cycle cycle) {
    if (isUpsert(prepared)) {
      return commitUpsert(prepared, cycle);
    }
    Transaction transaction = prepared.table().newTransaction();
    AppendFiles append = prepared.branch().newFastAppend(transaction);
    TableResult result = fill(append, prepared, cycle);
    append.commit();
    recordLastCommit(transaction, prepared, cycle, result.validThroughMs());
    transaction.commitTransaction();
    prepared.table().refresh();
    return withSnapshot(result, prepared, cycle.commitId());
  }

  /**
   * Commits every table of the cycle in one REST transaction: an append table's fast append, an
   * upsert table's staged attempt ({@link UpsertCommit#stage}), each to the table's commit branch.
   * Each table's part requires that that branch is still at the snapshot the part was built on (or
   * still missing, when the part creates it) (the requirements {@link TableCommit#create} derives
   * from the start metadata), so any commit that landed meanwhile on any of the tables fails the
   * whole transaction, and the catalog applies none of it. After such a conflict ({@code
   * CommitFailedException}), or a validation that failed while staging, every table is refreshed
   * and built again, up to {@link #UPSERT_ATTEMPTS} times; the staged attempts' delete files are
   * deleted. After any other failure they are deleted only when the transaction certainly did not
   * land, and the tables fail.
   */
  private Map<String, TableResult> commitAtomically(
      RESTCatalog rest, List<Prepared> tables, Cycle cycle) {
    Map<String, UpsertEvents> upserts = new LinkedHashMap<>();
    for (Prepared prepared : tables) {
      if (isUpsert(prepared)) {
        upserts.put(prepared.name(), UpsertEvents.read(prepared.table(), prepared.events()));
      }
    }
    for (int attempt = 1; ; attempt++) {
      if (attempt > 1) {
        tables.forEach(prepared -> prepared.table().refresh());
      }
      List<TableCommit> commits = new ArrayList<>();
      Map<String, TableResult> results = new LinkedHashMap<>();
      Map<String, StagedUpsert> staged = new LinkedHashMap<>();
      boolean sent = false;
      try {
        for (Prepared prepared : tables) {
          UpsertEvents events = upserts.get(prepared.name());
          Transaction transaction;
          if (events == null) {
            transaction = prepared.table().newTransaction();
            AppendFiles append = prepared.branch().newFastAppend(transaction);
            TableResult result = fill(append, prepared, cycle);
            results.put(prepared.name(), result);
            append.commit();
            recordLastCommit(transaction, prepared, cycle, result.validThroughMs());
          } else {
            Long[] validThrough = new Long[1];
            StagedUpsert attemptOf =
                upsertCommit(prepared)
                    .stage(
                        events.keys(),
                        events.dataFiles(),
                        events.superseded(),
                        events.truncated(),
                        "floe-" + cycle.commitId(),
                        beforeUpsertCommit(prepared, events, cycle, validThrough));
            staged.put(prepared.name(), attemptOf);
            results.put(prepared.name(), upsertResult(prepared, events, validThrough[0]));
            transaction = attemptOf.transaction();
          }
          BaseTransaction base = (BaseTransaction) transaction;
          commits.add(
              TableCommit.create(
                  TableIdentifier.parse(prepared.name()),
                  base.startMetadata(),
                  base.currentMetadata()));
        }
        sent = true;
        rest.commitTransaction(commits);
      } catch (ValidationException | CommitFailedException e) {
        staged.values().forEach(StagedUpsert::discard);
        if (attempt >= UPSERT_ATTEMPTS) {
          throw e;
        }
        LOG.warn(
            "Tables {}: the transaction of cycle {} failed ({}); building it again from the"
                + " tables' new snapshots (attempt {} of {})",
            tables.stream().map(Prepared::name).toList(),
            cycle.commitId(),
            e.getMessage(),
            attempt + 1,
            UPSERT_ATTEMPTS);
        continue;
      } catch (RuntimeException e) {
        // nothing was sent while staging; a transaction sent may have landed unless it certainly
        // failed
        if (!sent || e instanceof CleanableFailure) {
          staged.values().forEach(StagedUpsert::discard);
        } else {
          staged.values().forEach(attemptOf -> attemptOf.keep(e));
        }
        throw e;
      }
      return committedTogether(tables, cycle, results, upserts, staged, attempt);
    }
  }

  /**
   * After a cycle's transaction landed: each table's result with its new snapshot, then, for the
   * upsert tables, the key index told, the commit logged and the transport files deleted.
   */
  private Map<String, TableResult> committedTogether(
      List<Prepared> tables,
      Cycle cycle,
      Map<String, TableResult> results,
      Map<String, UpsertEvents> upserts,
      Map<String, StagedUpsert> staged,
      int attempts) {
    Map<String, TableResult> committed = new LinkedHashMap<>();
    for (Prepared prepared : tables) {
      prepared.table().refresh();
      committed.put(
          prepared.name(), withSnapshot(results.get(prepared.name()), prepared, cycle.commitId()));
    }
    for (Prepared prepared : tables) {
      UpsertEvents events = upserts.get(prepared.name());
      if (events != null) {
        UpsertCommit.Outcome outcome = staged.get(prepared.name()).landed(attempts);
        logUpsert(prepared, cycle, events, outcome);
        events.deleteTransportFiles(prepared.table());
      }
    }
    return committed;
  }

  private TableResult fill(AppendFiles append, Prepared prepared, Cycle cycle) {
    long files = 0;
    long records = 0;
    long bytes = 0;
    for (PendingEvent event : prepared.events()) {
      if (event.event().content() != ManifestContent.DATA) {
        // only upsert mode ships key files, and they are never committed as they are
        throw new IllegalStateException(
            "Table "
                + prepared.name()
                + ": manifest "
                + event.event().manifestLocation()
                + " lists key files, which only an upsert commit may read");
      }
      append.appendManifest(new EventManifest(event.event()));
      files += event.event().fileCount();
      records += event.event().recordCount();
      bytes += event.event().totalFileSizeBytes();
    }
    Optional<Contract> contract = contracts.apply(prepared.name());
    if (contract.isPresent()) {
      CommitProfile.set(append, prepared.table(), contract.get(), prepared.events())
          .ifPresent(profile -> profiles.put(prepared.name(), profile));
    }
    if (bytes > 0) {
      // Iceberg counts the files and rows of an appended manifest, not their size: without this
      // total-files-size would stay 0, and tools reading summaries would see an empty table
      append.set(SnapshotSummary.ADDED_FILE_SIZE_PROP, Long.toString(bytes));
    }
    Long validThrough = mark(append, prepared, cycle);
    return new TableResult(
        null,
        prepared.events().size(),
        files,
        records,
        bytes,
        validThrough,
        prepared.base().map(CommitMarks.Mark::sourceOffsets).orElse(Map.of()),
        0);
  }

  /**
   * Sets the cycle's marks on a table's commit (commit id, control and source offsets, watermark)
   * and the check that no commit of this connector landed since the events were checked.
   *
   * @return the table's watermark after the commit, null if it has none
   */
  private Long mark(SnapshotUpdate<?> update, Prepared prepared, Cycle cycle) {
    Map<Integer, Long> position = new TreeMap<>(cycle.controlPosition());
    update.set(CommitMarks.COMMIT_ID, cycle.commitId().toString());
    update.set(CommitMarks.CONNECTOR, connectorName);
    update.set(
        CommitMarks.CONTROL_OFFSETS + groupId,
        CommitMarks.controlOffsets(controlTopic.name(), controlTopic.id().toString(), position));
    Map<TopicPartition, Long> sourceOffsets = sourceOffsets(prepared, cycle);
    if (!sourceOffsets.isEmpty()) {
      update.set(CommitMarks.SOURCE_OFFSETS + groupId, CommitMarks.sourceOffsets(sourceOffsets));
    }
    Long previous = prepared.base().map(CommitMarks.Mark::validThroughMs).orElse(null);
    Long validThrough = null;
    if (cycle.validThroughMs().isPresent()) {
      validThrough =
          previous == null
              ? cycle.validThroughMs().getAsLong()
              : Math.max(previous, cycle.validThroughMs().getAsLong());
    } else if (previous != null) {
      validThrough = previous;
    }
    if (validThrough != null) {
      update.set(CommitMarks.VALID_THROUGH_MS + groupId, Long.toString(validThrough));
    }
    contractMarks.mark(
        update,
        prepared.name(),
        contracts.apply(prepared.name()),
        prepared.base().map(base -> prepared.table().snapshot(base.snapshotId())).orElse(null));
    String expectedBase = prepared.base().map(CommitMarks.Mark::commitId).orElse(null);
    update.validateWith(new NoCommitSince(groupId, expectedBase, prepared.checkedAt()));
    return validThrough;
  }

  /** The table's previous source offsets, moved on by the cycle's where it brings any. */
  private static Map<TopicPartition, Long> sourceOffsets(Prepared prepared, Cycle cycle) {
    Map<TopicPartition, Long> offsets =
        new HashMap<>(prepared.base().map(CommitMarks.Mark::sourceOffsets).orElse(Map.of()));
    cycle.sourceOffsets().forEach((p, offset) -> offsets.merge(p, offset, Math::max));
    return offsets;
  }

  /**
   * Records the cycle's mark in the table's {@link CommitMarks#LAST_COMMIT} property of the table's
   * commit branch, in the transaction whose snapshot holds it, once that snapshot is applied to it
   * (the head of the branch in the transaction): the property and the snapshot land together or not
   * at all, and a retried transaction keeps the snapshot's id.
   */
  private void recordLastCommit(
      Transaction transaction, Prepared prepared, Cycle cycle, Long validThroughMs) {
    CommitBranch branch = prepared.branch();
    transaction
        .updateProperties()
        .set(
            CommitMarks.lastCommitKey(groupId, branch),
            CommitMarks.lastCommit(
                branch,
                cycle.commitId().toString(),
                branch.head(transaction.table()).snapshotId(),
                System.currentTimeMillis(),
                CommitMarks.controlOffsets(
                    controlTopic.name(), controlTopic.id().toString(), cycle.controlPosition()),
                sourceOffsets(prepared, cycle),
                validThroughMs))
        .commit();
  }

  /**
   * Upsert mode: the workers' data files (every image, less those a later change of the cycle
   * superseded, which are deleted) and key files (every key deleted or upserted) go in as one
   * {@code RowDelta} that also deletes the stored rows of those keys, with deletion vectors (v3) or
   * position deletes (v2). The key files and the workers' manifests are deleted once the commit is
   * in: nothing refers to them then.
   */
  private TableResult commitUpsert(Prepared prepared, Cycle cycle) {
    UpsertEvents events = UpsertEvents.read(prepared.table(), prepared.events());
    Long[] validThrough = new Long[1];
    UpsertCommit.Outcome outcome =
        upsertCommit(prepared)
            .commit(
                events.keys(),
                events.dataFiles(),
                events.superseded(),
                events.truncated(),
                "floe-" + cycle.commitId(),
                beforeUpsertCommit(prepared, events, cycle, validThrough));
    prepared.table().refresh();
    logUpsert(prepared, cycle, events, outcome);
    TableResult result =
        withSnapshot(upsertResult(prepared, events, validThrough[0]), prepared, cycle.commitId());
    events.deleteTransportFiles(prepared.table());
    return result;
  }

  private UpsertCommit upsertCommit(Prepared prepared) {
    return new UpsertCommit(
        prepared.table(),
        prepared.branch(),
        UPSERT_ATTEMPTS,
        keyIndexes.forTable(prepared.name()),
        readers);
  }

  /**
   * What an upsert commit adds to each attempt: the cycle's marks and the check that no commit of
   * this connector landed since (into {@code validThrough}, the table's watermark), the truncates,
   * the profile of a table with a contract, and the {@link CommitMarks#LAST_COMMIT} property.
   */
  private UpsertCommit.BeforeCommit beforeUpsertCommit(
      Prepared prepared, UpsertEvents events, Cycle cycle, Long[] validThrough) {
    return new UpsertCommit.BeforeCommit() {
      @Override
      public void prepare(RowDelta delta, Snapshot base, WrittenDeletes deletes) {
        validThrough[0] = mark(delta, prepared, cycle);
        if (events.truncated()) {
          delta.set(CommitMarks.TRUNCATED_AT, describe(events.truncates()));
        }
        Optional<Contract> contract = contracts.apply(prepared.name());
        if (contract.isPresent()) {
          CommitProfile.setUpsert(
                  delta,
                  prepared.table(),
                  contract.get(),
                  events.dataFiles(),
                  events.supersededRows(),
                  deletes,
                  events.truncated())
              .ifPresent(profile -> profiles.put(prepared.name(), profile));
        }
      }

      @Override
      public void applied(Transaction transaction) {
        recordLastCommit(transaction, prepared, cycle, validThrough[0]);
      }
    };
  }

  /** An upsert table's result, before its snapshot is known. */
  private static TableResult upsertResult(
      Prepared prepared, UpsertEvents events, Long validThroughMs) {
    return new TableResult(
        null,
        prepared.events().size(),
        events.dataFiles().size(),
        events.records(),
        events.bytes(),
        validThroughMs,
        prepared.base().map(CommitMarks.Mark::sourceOffsets).orElse(Map.of()),
        0);
  }

  private static void logUpsert(
      Prepared prepared, Cycle cycle, UpsertEvents events, UpsertCommit.Outcome outcome) {
    if (events.truncated()) {
      LOG.info(
          "Table {}: cycle {} emptied the table before adding its changes, for the truncates read"
              + " at {}; {} earlier hand-overs of those partitions in the cycle were dropped",
          prepared.name(),
          cycle.commitId(),
          describe(events.truncates()),
          events.droppedHandOvers());
    }
    LOG.info(
        "Table {}: cycle {} replaced or deleted {} stored rows of {} keys with {} delete files"
            + " ({} replaced), located in {}",
        prepared.name(),
        cycle.commitId(),
        outcome.deletes().rowsDeleted(),
        events.keys().size(),
        outcome.deletes().added().size(),
        outcome.deletes().rewritten().size(),
        outcome.resolution());
  }

  /**
   * Carries this connector's last mark onto a maintenance commit of the table (a compaction), so
   * the table's newest snapshot still says which records it holds; the commit is valid only if no
   * commit of this connector, and where the history no longer reaches the mark no commit at all,
   * landed since {@code start}, the snapshot the maintenance read. Maintenance commits go to main:
   * a table committed to another branch is not rewritten by the connector's maintenance.
   */
  void carryMarks(SnapshotUpdate<?> update, Table table, Snapshot start) {
    Optional<CommitMarks.Mark> mark = CommitMarks.latest(table, groupId);
    Long checkedAt = start == null ? null : start.snapshotId();
    if (mark.isEmpty()) {
      update.validateWith(new NoCommitSince(groupId, null, checkedAt));
      return;
    }
    CommitMarks.Mark last = mark.get();
    update.set(CommitMarks.COMMIT_ID, last.commitId());
    update.set(CommitMarks.CONNECTOR, connectorName);
    update.set(
        CommitMarks.CONTROL_OFFSETS + groupId,
        CommitMarks.controlOffsets(controlTopic.name(), last.topicId(), last.offsets()));
    if (!last.sourceOffsets().isEmpty()) {
      update.set(
          CommitMarks.SOURCE_OFFSETS + groupId, CommitMarks.sourceOffsets(last.sourceOffsets()));
    }
    if (last.validThroughMs() != null) {
      update.set(CommitMarks.VALID_THROUGH_MS + groupId, Long.toString(last.validThroughMs()));
    }
    update.validateWith(new NoCommitSince(groupId, last.commitId(), checkedAt));
  }

  /**
   * The connector's marks as its maintenance sees them: carried onto maintenance commits ({@link
   * #carryMarks}), and held by the snapshots that have this group's control offsets.
   */
  Marks marks() {
    return new Marks() {
      @Override
      public void carry(SnapshotUpdate<?> update, Table table, Snapshot start) {
        carryMarks(update, table, start);
      }

      @Override
      public boolean heldBy(Snapshot snapshot) {
        return snapshot.summary() != null
            && snapshot.summary().containsKey(CommitMarks.CONTROL_OFFSETS + groupId);
      }
    };
  }

  /** Truncates as {@code topic-partition@offset}, comma-separated. */
  private static String describe(List<ChangeSource> truncates) {
    return truncates.stream().map(ChangeSource::toString).collect(Collectors.joining(","));
  }

  private static boolean isUpsert(Prepared prepared) {
    return prepared.events().stream()
        .anyMatch(event -> event.event().content() == ManifestContent.DELETES);
  }

  /**
   * The result with the snapshot the cycle's commit made on the table's commit branch. A catalog
   * that answered the commit as done while the branch does not hold it (a REST server that replays
   * a conflicting transaction on the newer metadata and drops its changes, say) fails the table:
   * its events are pending still, and the retry commits them again, never counting them as
   * committed.
   */
  private static TableResult withSnapshot(TableResult result, Prepared prepared, UUID commitId) {
    Table table = prepared.table();
    Snapshot snapshot = null;
    for (Snapshot s : prepared.branch().history(table)) {
      if (commitId.toString().equals(s.summary().get(CommitMarks.COMMIT_ID))) {
        snapshot = s;
        break;
      }
    }
    if (snapshot == null) {
      throw new ConnectException(
          "Table "
              + table.name()
              + ": the catalog answered that commit "
              + commitId
              + " was made, but the history of branch "
              + prepared.branch()
              + " does not hold it (its head "
              + Optional.ofNullable(prepared.branch().head(table))
                  .map(Snapshot::snapshotId)
                  .orElse(null)
              + "); its data files are committed again on the retry");
    }
    return new TableResult(
        snapshot,
        result.manifests(),
        result.files(),
        result.records(),
        result.bytes(),
        result.validThroughMs(),
        result.previousSourceOffsets(),
        result.skipped());
  }

  /**
   * Fails a commit if a commit of this connector landed after the one the pending events were
   * checked against: then the check must be made again, or a manifest could go in twice. When the
   * history no longer reaches back to a commit of this connector (another engine compacted the
   * table and expired the snapshots below), the commit is valid only if nothing at all was
   * committed since the check.
   */
  static final class NoCommitSince implements SnapshotAncestryValidator {
    private final String groupId;
    private final String expectedCommitId;
    private final Long checkedAt;

    /**
     * @param expectedCommitId the cycle of the connector's last commit the events were checked
     *     against (its snapshot's or a maintenance snapshot's that carries its marks), null if it
     *     had none
     * @param checkedAt the head of the branch committed to at that check, null if it had none
     */
    NoCommitSince(String groupId, String expectedCommitId, Long checkedAt) {
      this.groupId = groupId;
      this.expectedCommitId = expectedCommitId;
      this.checkedAt = checkedAt;
    }

    @Override
    public boolean validate(Iterable<Snapshot> ancestors) {
      Snapshot parent = null;
      Snapshot oldest = null;
      for (Snapshot snapshot : ancestors) {
        if (parent == null) {
          parent = snapshot;
        }
        oldest = snapshot;
        if (snapshot.summary().containsKey(CommitMarks.CONTROL_OFFSETS + groupId)) {
          return expectedCommitId != null
              && expectedCommitId.equals(snapshot.summary().get(CommitMarks.COMMIT_ID));
        }
      }
      boolean cut = oldest != null && oldest.parentId() != null;
      if (!cut) {
        return expectedCommitId == null;
      }
      return checkedAt != null && checkedAt == parent.snapshotId();
    }

    @Override
    public String errorMessage() {
      return "another commit of connector group "
          + groupId
          + " may have landed since the pending data files were checked (cycle "
          + expectedCommitId
          + " was expected to be its latest, snapshot "
          + checkedAt
          + " the table's current)";
    }
  }

  static Map<String, List<PendingEvent>> byTable(List<PendingEvent> events) {
    Map<String, List<PendingEvent>> byTable = new HashMap<>();
    for (PendingEvent event : events) {
      byTable.computeIfAbsent(event.event().table(), t -> new ArrayList<>()).add(event);
    }
    return byTable;
  }
}

/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.branch.CommitBranchException;
import io.floe.connect.control.CommitComplete;
import io.floe.connect.control.ControlChannel;
import io.floe.connect.control.ControlEvent;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.DataComplete;
import io.floe.connect.control.DataWritten;
import io.floe.connect.control.EventHeader;
import io.floe.connect.control.EventType;
import io.floe.connect.control.KafkaClients;
import io.floe.connect.control.StartCommit;
import io.floe.connect.maintain.TableMaintenance;
import io.floe.connect.metrics.CoordinatorMetrics;
import io.floe.connect.metrics.TableMetrics;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's one coordinator (ARCHITECTURE.md, "A cycle" and "Why nothing is lost or written
 * twice"), on a thread of its own in the task that owns the election partition. It starts a cycle
 * every interval (or early, when a worker asks), gathers the workers' answers, commits every table
 * of the cycle, then sends {@code CommitComplete} and commits its control-topic position in one
 * transaction.
 *
 * <p>Its transactional id is the same for every coordinator of the connector, so a new one fences
 * the old one ("Zombies are fenced"); and since every table commit re-reads the table's position
 * first and validates that no other commit of the connector landed meanwhile, even a coordinator
 * that has not yet noticed it was replaced cannot commit anything twice. Without a committed
 * position it starts at the earliest control offset. Retriable failures are retried with backoff
 * for the retry timeout, then the coordinator fails and so does its task ("Never healthy while not
 * committing"). What it shares with the workers (its control clients and thread, unknown outcomes,
 * fencing and failures) is its {@link ControlParty}'s.
 */
public final class Coordinator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
  private static final long FIRST_BACKOFF_MS = 500;
  private static final long MAX_BACKOFF_MS = 30_000;

  private final ControlSettings settings;
  private final ControlTopic topic;
  private final Supplier<Set<TopicPartition>> sourcePartitions;
  private final Clock clock;
  private final CycleTracker tracker;
  private final SilentPartitions silence;
  private final TableMaintenance maintenance;
  private final TableCommitter committer;
  private final CoordinatorMetrics metrics;
  private final List<PendingEvent> pending = new ArrayList<>();

  /**
   * The newest source offset of each partition in the answers read and not yet committed, late
   * answers to earlier cycles included: their data is pending with the rest and is committed with
   * it, so their offsets must be recorded with it too.
   */
  private final Map<TopicPartition, Long> answeredOffsets = new HashMap<>();

  /** The end of the control topic when an orphan scan last asked what is in flight. */
  private Map<Integer, Long> waitedAt;

  /**
   * Answers (cycle and sender) whose {@code DataWritten} was read but not yet their {@code
   * DataComplete}, which the same transaction holds further on. A commit waits for it (see {@link
   * #transactionsSplit}): committed without it, the data would go in without its offsets, and the
   * control position could not tell the events below it from those not yet committed. A sender may
   * answer one cycle more than once (a task that answered before it was replaced, then its
   * replacement; each answer is a transaction of its own, and a sender's transactions follow one
   * another in the topic, as its transactional id fences the older): each answer's {@code
   * DataWritten} opens it again until that answer's {@code DataComplete}. The party hands over each
   * event once, so a redelivered {@code DataWritten} cannot open a finished answer.
   */
  private final Set<String> unfinishedAnswers = new HashSet<>();

  /** How long the commit has waited for the rest of a transaction read in part. */
  private final RetryBudget splitWait;

  private boolean splitReported;
  private long nextStartMs;

  private final ControlParty party;
  private volatile Thread restore;
  private TableCommitter.Cycle retrying;
  private long retryAtMs = -1;
  private final RetryBudget commitRetries;

  /**
   * @param groupId the Connect consumer group of the connector: names its events and its marks
   * @param sourcePartitions every partition of the connector's source topics, asked at each cycle
   * @param metrics the coordinator's metrics, closed with it
   * @param readers the threads upsert commits and key indexes plan, read and validate on: in a
   *     task, Iceberg's shared worker pool
   */
  public Coordinator(
      ControlSettings settings,
      String groupId,
      Catalog catalog,
      KafkaClients clients,
      ControlTopic topic,
      Supplier<Set<TopicPartition>> sourcePartitions,
      Clock clock,
      CoordinatorMetrics metrics,
      ExecutorService readers) {
    this.settings = settings;
    this.topic = topic;
    this.sourcePartitions = sourcePartitions;
    this.clock = clock;
    this.metrics = metrics;
    this.tracker = new CycleTracker(settings.commitInterval(), settings.commitTimeout(), clock);
    this.silence =
        new SilentPartitions(settings.maxSilentCycles(), settings.retryTimeout().toMillis());
    this.committer =
        new TableCommitter(
            catalog,
            groupId,
            settings.connectorName(),
            topic,
            settings.keyIndex(),
            settings.branches(),
            settings.contracts(),
            readers);
    this.maintenance =
        new TableMaintenance(
            catalog,
            settings.maintenance(),
            clock,
            readers,
            metrics::table,
            committer.marks(),
            settings.branches(),
            settings.secrets()::mask,
            this::inFlight);
    this.commitRetries =
        new RetryBudget(settings.retryTimeout(), FIRST_BACKOFF_MS, MAX_BACKOFF_MS, clock);
    this.splitWait = new RetryBudget(settings.retryTimeout(), clock);
    this.party =
        ControlParty.coordinator(
            settings, groupId, clients, topic, clock, this::opened, this::pollAndStep);
  }

  public void start() {
    party.start();
  }

  /** Throws the coordinator's failure, if it failed. */
  public void checkHealthy() {
    party.checkHealthy();
  }

  /**
   * Opens the control clients, as the thread does first. The thread's loop is {@link #open} then
   * {@link #turn} until it stops; tests drive the same steps by hand on an injected clock.
   *
   * @return false when it failed (then {@link #checkHealthy} throws)
   */
  boolean open() {
    return party.first();
  }

  /**
   * One turn of the loop: polls the control topic once, then advances the cycle.
   *
   * @return false when the coordinator failed (then {@link #checkHealthy} throws)
   */
  boolean turn() {
    return party.turn();
  }

  private void opened() {
    openClients();
    startRestoringTableMetrics();
  }

  private void pollAndStep() {
    // its own events (StartCommit, CommitComplete) are of no concern to it; any other is decoded,
    // and one this Floe does not know fails it (Floe versions must not be mixed)
    party.poll(
        header -> !header.is(EventType.START_COMMIT) && !header.is(EventType.COMMIT_COMPLETE),
        this::handle);
    metrics.controlTopicLag(party.lag());
    step();
  }

  /**
   * Shows the configured tables' last commits until this coordinator commits them. It runs beside
   * the loop: reading a table can take minutes while the catalog or its object store is down, and
   * the cycles must go on meanwhile (workers learn of failures only by being asked to hand over).
   */
  private void startRestoringTableMetrics() {
    restore =
        new Thread(
            this::restoreTableMetrics, "floe-coordinator-metrics-" + settings.connectorName());
    restore.setDaemon(true);
    restore.start();
  }

  /** Waits until the tables' last commits are shown in the metrics (for tests). */
  void awaitTableMetricsRestored() throws InterruptedException {
    restore.join();
  }

  private void restoreTableMetrics() {
    for (String table : settings.tables()) {
      if (!party.running()) {
        return;
      }
      try {
        committer
            .lastCommit(table)
            .ifPresent(
                mark ->
                    metrics
                        .table(table)
                        .restored(mark.snapshotId(), mark.timestampMs(), mark.validThroughMs()));
      } catch (RuntimeException e) {
        LOG.debug("No last commit of table {} to show in its metrics: {}", table, e.toString());
      }
    }
  }

  private void openClients() {
    party.openChannel();
    Map<TopicPartition, OffsetAndMetadata> committed = party.startedFrom();
    LOG.info(
        "Coordinator of connector {} started (transactional id {}, control topic {} from {},"
            + " interval {} ms, timeout {} ms)",
        settings.connectorName(),
        settings.coordinatorTransactionalId(),
        topic.name(),
        committed.isEmpty() ? "the earliest offset" : committed,
        settings.commitInterval().toMillis(),
        settings.commitTimeout().toMillis());
  }

  private void handle(
      ConsumerRecord<byte[], byte[]> record, EventHeader header, ControlEvent event) {
    if (event instanceof DataWritten written) {
      pending.add(new PendingEvent(record.partition(), record.offset(), written));
      unfinishedAnswers.add(written.commitId() + "/" + header.senderTaskId());
    } else if (event instanceof DataComplete complete) {
      unfinishedAnswers.remove(complete.commitId() + "/" + header.senderTaskId());
      tracker.answered(complete.commitId(), complete.assignments());
      for (io.floe.connect.control.PartitionOffset answer : complete.assignments()) {
        if (answer.offset() != null) {
          answeredOffsets.merge(
              new TopicPartition(answer.topic(), answer.partition()), answer.offset(), Math::max);
        }
      }
      silence.heard(
          complete.assignments().stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList());
    } else if (event instanceof io.floe.connect.control.CommitRequest) {
      tracker.requestEarly();
    }
  }

  /**
   * Whether a worker's transaction was read only in part (a poll ended inside it): then the commit
   * waits for the rest, which is committed and follows at once. A part is never committed without
   * the rest: an upsert hand-over's data manifest committed without its key manifest would add the
   * new images without retiring the stored rows, and the control position could not tell the events
   * below it from those not yet committed. A control topic that does not deliver the rest within
   * the retry timeout fails the coordinator; a restarted one reads the whole transaction again from
   * its committed position.
   */
  private boolean transactionsSplit() {
    if (unfinishedAnswers.isEmpty()) {
      splitWait.succeeded();
      splitReported = false;
      return false;
    }
    boolean givenUp = splitWait.failed(clock.millis());
    long waitedMs = splitWait.elapsedMs();
    if (givenUp) {
      throw new ConnectException(
          "The control topic "
              + topic.name()
              + " has not delivered the end of the answers "
              + unfinishedAnswers
              + " for "
              + waitedMs
              + " ms, "
              + splitWait.longerThanTimeout()
              + "; an answer is committed whole or not at all, so nothing of them is committed."
              + " A restarted coordinator reads them again from its committed control position.");
    }
    if (waitedMs >= settings.commitTimeout().toMillis() && !splitReported) {
      splitReported = true;
      LOG.warn(
          "The control topic has not delivered the end of answers {} within {} ms; the commit"
              + " waits for them (up to {}={} ms) rather than commit them in part",
          unfinishedAnswers,
          waitedMs,
          io.floe.connect.config.CommitKeys.COMMIT_RETRY_TIMEOUT_MS,
          settings.retryTimeout().toMillis());
    }
    return true;
  }

  private void step() {
    if (retrying != null) {
      if (clock.millis() >= retryAtMs && !transactionsSplit()) {
        commit(refresh(retrying));
      }
      return;
    }
    if (tracker.inCycle()) {
      if ((tracker.complete() || tracker.timedOut()) && !transactionsSplit()) {
        if (!tracker.complete()) {
          LOG.warn(
              "Cycle {} timed out after {} ms with {} of {} partitions answered; committing what"
                  + " arrived, late answers join the next cycle",
              tracker.commitId(),
              tracker.elapsedMs(),
              tracker.answeredCount(),
              tracker.expectedCount());
        }
        boolean timedOut = !tracker.complete();
        metrics.cycleFinished(
            timedOut, tracker.workersAnswered(), tracker.answeredCount(), tracker.expectedCount());
        TableCommitter.Cycle cycle =
            new TableCommitter.Cycle(
                tracker.commitId(),
                TableCommitter.byTable(pending),
                position(),
                Map.copyOf(answeredOffsets),
                tracker.answeredWatermarkMs(),
                timedOut);
        checkNotSilent();
        tracker.finish();
        commit(cycle);
      }
    } else if (tracker.startDue() && clock.millis() >= nextStartMs) {
      startCycle();
    }
  }

  /**
   * Fails when a partition has gone without an answer for too long: nothing of it is committed, and
   * the connector must not look healthy meanwhile (ARCHITECTURE.md, "Never healthy while not
   * committing").
   */
  private void checkNotSilent() {
    if (!tracker.expectedKnown()) {
      return;
    }
    Set<TopicPartition> silent = silence.cycleEnded(tracker.expected(), clock.millis());
    if (!silent.isEmpty()) {
      throw new ConnectException(
          "No task has answered for source partitions "
              + silent
              + " in "
              + settings.maxSilentCycles()
              + " consecutive commit cycles (and at least "
              + settings.retryTimeout().toMillis()
              + " ms): nothing of them is committed. Check the status and logs of the tasks that"
              + " own them (a failed or stuck task, or a task that cannot hand its files over);"
              + " see "
              + io.floe.connect.config.CommitKeys.COMMIT_MAX_SILENT_CYCLES
              + ".");
    }
  }

  private TableCommitter.Cycle refresh(TableCommitter.Cycle cycle) {
    return new TableCommitter.Cycle(
        cycle.commitId(),
        TableCommitter.byTable(pending),
        position(),
        Map.copyOf(answeredOffsets),
        cycle.answeredWatermarkMs(),
        cycle.partial());
  }

  private void startCycle() {
    UUID commitId = UUID.randomUUID();
    Set<TopicPartition> expected = null;
    try {
      expected = sourcePartitions.get();
    } catch (RuntimeException e) {
      LOG.warn(
          "Cannot list the source partitions ({}); the cycle runs to its timeout",
          settings.secrets().mask(e.toString()));
    }
    if (!inTransaction("the start of cycle " + commitId, new StartCommit(commitId), Map.of())) {
      return; // not started: the next turn tries again
    }
    if (expected == null) {
      tracker.startUnknown(commitId);
    } else {
      tracker.start(commitId, expected);
    }
    metrics.cycleStarted();
    LOG.debug(
        "Started cycle {} for {} source partitions",
        commitId,
        expected == null ? "unknown" : expected.size());
  }

  private Map<Integer, Long> position() {
    return party.position();
  }

  /**
   * The files that the events the coordinator holds and has not committed name, of every table (a
   * table may be routed under two names): never orphans, whatever their age.
   *
   * <p>Empty while it cannot know them all: committed control events wait unread (a stalled or
   * lagging read, or a coordinator catching up after a restart), and only reading them names their
   * files. It knows them once it has read to the end of the control topic, or past the end it saw
   * when a scan last waited: the events committed since then name files written since the previous
   * cycles, younger than any orphan's least age.
   */
  private Optional<Set<String>> inFlight() {
    Optional<Map<Integer, Long>> ends = party.ends();
    if (ends.isEmpty()) {
      return Optional.empty();
    }
    Map<Integer, Long> position = position();
    boolean known =
        readTo(position, ends.get()) || (waitedAt != null && readTo(position, waitedAt));
    waitedAt = ends.get();
    return known ? Optional.of(committer.filesOf(List.copyOf(pending))) : Optional.empty();
  }

  private static boolean readTo(Map<Integer, Long> position, Map<Integer, Long> ends) {
    return ends.entrySet().stream()
        .allMatch(end -> position.getOrDefault(end.getKey(), 0L) >= end.getValue());
  }

  private void commit(TableCommitter.Cycle cycle) {
    long started = clock.millis();
    TableCommitter.Outcome outcome = committer.commit(cycle);
    long durationMs = clock.millis() - started;
    outcome
        .committed()
        .forEach(
            (table, result) -> {
              pending.removeIf(event -> event.event().table().equals(table));
              if (result.skipped() > 0) {
                metrics.table(table).alreadyCommitted(result.skipped());
              }
              if (result.snapshot() != null) {
                committed(table, result, cycle, durationMs);
              }
            });
    outcome.failures().keySet().forEach(table -> metrics.table(table).failed());
    if (outcome.failures().isEmpty()) {
      cycle.sourceOffsets().forEach((p, offset) -> answeredOffsets.remove(p, offset));
      retrying = null;
      commitRetries.succeeded();
      commitPosition(cycle);
      Map<String, Snapshot> committed = new LinkedHashMap<>();
      outcome
          .committed()
          .forEach(
              (table, result) -> {
                if (result.snapshot() != null) {
                  committed.put(table, result.snapshot());
                }
              });
      maintenance.afterCommit(committed);
      return;
    }
    failed(cycle, outcome.failures(), started);
  }

  private void committed(
      String table,
      TableCommitter.TableResult result,
      TableCommitter.Cycle cycle,
      long durationMs) {
    Long validThrough = result.validThroughMs();
    LOG.info(
        "Committed table {}: snapshot {}, commit {}, {} files, {} records, {} bytes, source offsets"
            + " {}, valid through {}, in {} ms{}",
        table,
        result.snapshot().snapshotId(),
        cycle.commitId(),
        result.files(),
        result.records(),
        result.bytes(),
        SourceRanges.describe(result.previousSourceOffsets(), cycle.sourceOffsets()),
        validThrough == null ? "-" : Instant.ofEpochMilli(validThrough),
        durationMs,
        cycle.partial() ? " (partial: the cycle timed out)" : "");
    OptionalLong answered = cycle.answeredWatermarkMs();
    Long watermarkAtMost =
        validThrough == null && cycle.partial() && answered.isPresent()
            ? answered.getAsLong()
            : null;
    TableMetrics tableMetrics = metrics.table(table);
    tableMetrics.committed(
        result.snapshot().snapshotId(),
        result.records(),
        result.files(),
        result.bytes(),
        durationMs,
        validThrough,
        cycle.partial());
    tableMetrics.shape(result.snapshot().summary());
    committer
        .takeProfile(table)
        .ifPresent(profile -> tableMetrics.profiled(profile.rows(), profile.columns()));
    settings
        .contracts()
        .apply(table)
        .ifPresent(
            contract ->
                ContractObjectives.check(
                    table,
                    contract,
                    tableMetrics,
                    result.records(),
                    validThrough,
                    watermarkAtMost,
                    clock.millis()));
  }

  /**
   * Some tables of a commit that began at {@code started} failed: it is retried after a pause,
   * unless a failure is fatal or failures have lasted longer than the retry timeout.
   */
  private void failed(
      TableCommitter.Cycle cycle, Map<String, RuntimeException> failures, long started) {
    long now = clock.millis();
    for (Map.Entry<String, RuntimeException> failure : failures.entrySet()) {
      RuntimeException cause = failure.getValue();
      if (isFatal(cause)) {
        throw new ConnectException(
            "Cannot commit table " + failure.getKey() + ": " + cause.getMessage(), cause);
      }
    }
    Map.Entry<String, RuntimeException> first = failures.entrySet().iterator().next();
    if (commitRetries.failed(started)) {
      throw new ConnectException(
          "Commits have failed for "
              + commitRetries.elapsedMs()
              + " ms, "
              + commitRetries.longerThanTimeout()
              + "; tables "
              + failures.keySet()
              + " are not committed (their data files are kept and are committed after a"
              + " restart). Last cause for "
              + first.getKey()
              + ": "
              + first.getValue(),
          first.getValue());
    }
    boolean unknown = first.getValue() instanceof CommitStateUnknownException;
    long backoffMs = commitRetries.nextBackoffMs();
    LOG.warn(
        "Commit {} of tables {} failed{}; retrying in {} ms: {}",
        cycle.commitId(),
        failures.keySet(),
        unknown ? " with an unknown outcome (the retry checks what the table holds first)" : "",
        backoffMs,
        settings.secrets().mask(first.getValue().toString()));
    retrying = cycle;
    retryAtMs = now + backoffMs;
  }

  private static boolean isFatal(RuntimeException e) {
    return e instanceof ControlTopicChangedException
        || e instanceof CommitBranchException
        || e instanceof HistoryRewoundException
        || e instanceof NoSuchTableException
        || e instanceof NotAuthorizedException
        || e instanceof ForbiddenException;
  }

  private void commitPosition(TableCommitter.Cycle cycle) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    cycle
        .controlPosition()
        .forEach(
            (partition, offset) ->
                offsets.put(
                    new TopicPartition(topic.name(), partition), new OffsetAndMetadata(offset)));
    OptionalLong validThrough = cycle.validThroughMs();
    // if this fails, the tables hold the cycle already: the next cycle's position covers it, and a
    // coordinator that reads from the older one skips what the tables hold ("Replays are skipped")
    inTransaction(
        "the control position of cycle " + cycle.commitId(),
        new CommitComplete(
            cycle.commitId(), validThrough.isPresent() ? validThrough.getAsLong() : null),
        offsets);
  }

  /**
   * Sends {@code event} in one transaction. A transaction that fails is aborted and tried again on
   * a later turn; one whose commit timed out may have committed, and is asked again on the next
   * turns before anything else (see {@link ControlParty#send}). Failures of the control topic count
   * against the retry timeout like the catalog's.
   *
   * @param offsets control offsets committed with it for the coordinator's group; empty for none
   * @return whether the transaction committed
   */
  private boolean inTransaction(
      String what, ControlEvent event, Map<TopicPartition, OffsetAndMetadata> offsets) {
    long attempt = clock.millis();
    ControlChannel.Sent sent =
        party.send(
            what,
            List.of(party.record(attempt, event)),
            offsets,
            new ConsumerGroupMetadata(settings.coordinatorGroupId()),
            attempt,
            party::succeeded);
    if (sent.outcome() == ControlChannel.Outcome.ABORTED) {
      party.failed("write to control topic " + topic.name(), sent.cause(), attempt);
      LOG.warn(
          "Coordinator could not send {} ({}); it tries again",
          what,
          settings.secrets().mask(sent.cause().toString()));
      nextStartMs = clock.millis() + party.nextBackoffMs();
    }
    return sent.committed();
  }

  /**
   * Stops the coordinator's thread ({@link ControlLoop#STOP_TIMEOUT} at most) and the metrics
   * restore beside it.
   */
  @Override
  public void close() {
    Thread restoring = restore;
    if (restoring != null) {
      restoring.interrupt(); // it reads the catalog only: nothing is left half done
    }
    party.stop();
    metrics.close();
    LOG.info("Coordinator of connector {} stopped", settings.connectorName());
  }
}

/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.control.ChangeSource;
import io.floe.connect.control.CommitRequest;
import io.floe.connect.control.ControlChannel;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.DataComplete;
import io.floe.connect.control.DataWritten;
import io.floe.connect.control.EventType;
import io.floe.connect.control.KafkaClients;
import io.floe.connect.control.PartitionOffset;
import io.floe.connect.control.StartCommit;
import io.floe.connect.metrics.TaskMetrics;
import io.floe.connect.write.ChangeSources;
import io.floe.connect.write.HandOver;
import io.floe.connect.write.Manifests;
import io.floe.connect.write.SinkWriter;
import io.floe.connect.write.SourcePosition;
import io.floe.connect.write.TableFiles;
import io.floe.connect.write.WriteFailedException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.apache.iceberg.ManifestContent;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's side of the commit protocol (ARCHITECTURE.md, "A cycle"). The task thread writes records
 * through {@link #put}; a control thread of its own reads the control topic and answers every
 * {@code StartCommit} at once, even when the task is idle: it hands over the writers' finished
 * files, writes one manifest per table and spec, and in one Kafka transaction sends the {@code
 * DataWritten} events, the {@code DataComplete} of every assigned partition and the source offsets
 * (with the Connect consumer's group metadata, so a worker of an old generation is fenced).
 *
 * <p>The two threads share the writer under one lock. If a transaction fails, the offsets it
 * carried did not move: the partitions are rewound to the first record of the hand-over on the task
 * thread's next {@code put}, and their data is written again. The same happens when files cannot be
 * written, closed or uploaded (the object store is down): the writers drop everything since the
 * last hand-over and start afresh. Failures that last longer than the retry timeout fail the task.
 * What it shares with the coordinator (its control clients and thread, unknown outcomes, fencing
 * and failures) is its {@link ControlParty}'s.
 */
public final class Worker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  private final ControlSettings settings;
  private final SinkWriter writer;
  private final Runnable awaitReported;
  private final ControlTopic topic;
  private final Supplier<ConsumerGroupMetadata> groupMetadataSource;
  private final Clock clock;
  private final TaskMetrics metrics;
  private final ReentrantLock lock = new ReentrantLock();
  private final Set<TopicPartition> assigned = new HashSet<>();
  private final Map<TopicPartition, Long> rewinds = new HashMap<>();
  private final ControlParty party;
  private volatile ConsumerGroupMetadata groupMetadata;
  private volatile boolean earlyRequested;
  private long bytesAtLastRequest;
  private boolean filesFailing;
  private long resumeAtMs;

  /**
   * @param writer the task's writer
   * @param awaitReported blocks until every record reported to the dead-letter path so far is
   *     acknowledged; called before a hand-over's offsets go into a transaction (ARCHITECTURE.md,
   *     "Offsets move with the files")
   * @param groupMetadata the Connect consumer's group metadata; read on the task thread only
   * @param metrics the task's metrics, given the writer's counters after each batch and hand-over
   */
  public Worker(
      ControlSettings settings,
      SinkWriter writer,
      Runnable awaitReported,
      KafkaClients clients,
      ControlTopic topic,
      Supplier<ConsumerGroupMetadata> groupMetadata,
      Clock clock,
      TaskMetrics metrics) {
    this.settings = settings;
    this.writer = writer;
    this.awaitReported = awaitReported;
    this.topic = topic;
    this.groupMetadataSource = groupMetadata;
    this.clock = clock;
    this.metrics = metrics;
    this.groupMetadata = groupMetadata.get();
    this.party =
        ControlParty.worker(
            settings, this.groupMetadata.groupId(), clients, topic, clock, this::answerCycles);
  }

  /** Opens the control clients and starts answering. */
  public void start() {
    openClients();
    party.start();
    LOG.info(
        "Worker of task {} started (transactional id {}, control topic {})",
        settings.taskId(),
        settings.workerTransactionalId(),
        topic.name());
  }

  /**
   * Opens the control clients at the end of the control topic. {@link #start} then runs {@link
   * #turn} on the control thread until the worker stops; tests drive the same steps by hand.
   */
  void openClients() {
    party.openChannel();
  }

  /** Task thread: partitions were assigned. */
  public void open(Collection<TopicPartition> partitions) {
    lock.lock();
    try {
      assigned.addAll(partitions);
      groupMetadata = groupMetadataSource.get();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Task thread: partitions were revoked. Their data not yet handed over is dropped, and so are the
   * unreported rows of any partition kept that shared files with them; those partitions are rewound
   * by the next {@link #put}, which drops its batch. A seek asked for here would come too late:
   * Connect revokes inside a poll and still delivers the records that poll fetched for the
   * partitions kept, which would then be written twice.
   */
  public void close(Collection<TopicPartition> partitions) {
    lock.lock();
    try {
      assigned.removeAll(partitions);
      Map<TopicPartition, Long> lost = new HashMap<>(writer.abandon(partitions));
      metrics.writers(writer.counts());
      partitions.forEach(rewinds::remove);
      lost.keySet().retainAll(assigned);
      earliest(rewinds, lost);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Task thread: writes a batch.
   *
   * @return rewinds the task must apply through its context (from a failed hand-over)
   */
  public Map<TopicPartition, Long> put(Collection<SinkRecord> records) {
    checkHealthy();
    metrics.received(records.size());
    lock.lock();
    try {
      groupMetadata = groupMetadataSource.get();
      Map<TopicPartition, Long> rewind = takeRewinds();
      if (rewind.isEmpty() && clock.millis() < resumeAtMs) {
        // still pausing after a failed write: read the batch again once the pause is over
        rewind = dropped(records);
      } else if (rewind.isEmpty()) {
        long started = clock.millis();
        try {
          writer.write(records);
        } catch (WriteFailedException e) {
          rewind = writeFailed(records, e, started);
        } finally {
          metrics.writers(writer.counts());
        }
      } else {
        // the batch may lie after the rewind point: drop it, and read every partition of it again
        // from its first offset in it, unless the failed hand-over rewinds it further back
        earliest(rewind, dropped(records));
        LOG.info("Task {} rewinds {} after a failed hand-over", settings.taskId(), rewind);
      }
      long pending = writer.bufferedBytes();
      if (pending >= settings.bufferBytes() && pending > bytesAtLastRequest) {
        earlyRequested = true;
        bytesAtLastRequest = pending;
      }
      return rewind;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Until when the task should read nothing after a failed write (epoch ms; in the past when it may
   * read). The task pauses its partitions until then; a batch that arrives earlier is dropped and
   * read again.
   */
  public long resumeAtMs() {
    lock.lock();
    try {
      return resumeAtMs;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Where the partitions of a dropped batch are read again: each at its first offset in the batch
   * (the caller keeps an earlier rewind it already has for the partition).
   */
  private Map<TopicPartition, Long> dropped(Collection<SinkRecord> records) {
    Map<TopicPartition, Long> first = FirstOffsets.of(records);
    first.keySet().retainAll(assigned);
    return first;
  }

  /** Adds {@code more} to {@code rewind}, keeping the earlier offset of a partition in both. */
  private static void earliest(Map<TopicPartition, Long> rewind, Map<TopicPartition, Long> more) {
    more.forEach((partition, offset) -> rewind.merge(partition, offset, Math::min));
  }

  private Map<TopicPartition, Long> takeRewinds() {
    Map<TopicPartition, Long> taken = new HashMap<>(rewinds);
    rewinds.clear();
    taken.keySet().retainAll(assigned);
    return taken;
  }

  /** Throws the failure of the control thread, if it failed. */
  public void checkHealthy() {
    party.checkHealthy();
  }

  /**
   * One turn of the control thread, as {@link #start} runs it (tests run it by hand).
   *
   * @return false when the worker failed (then {@link #checkHealthy} throws)
   */
  boolean turn() {
    return party.turn();
  }

  /**
   * The worker's part of a turn: polls the control topic once, answers every cycle started, and
   * sends an early commit request if one is due.
   */
  private void answerCycles() {
    party.poll(
        header -> header.is(EventType.START_COMMIT),
        (record, header, event) -> answer(((StartCommit) event).commitId()));
    if (earlyRequested) {
      earlyRequested = false;
      requestCommit();
    }
  }

  private void answer(UUID commitId) {
    long started = clock.millis();
    lock.lock();
    try {
      awaitReported.run();
      long attempt = clock.millis();
      HandOver handOver;
      try {
        handOver = writer.handOver();
      } catch (RuntimeException e) {
        // a file failed to close or upload: nothing of it may be committed
        handOverFailed(commitId, writer.reset(), e, true, attempt);
        return;
      } finally {
        metrics.writers(writer.counts());
      }
      List<PartitionOffset> offsets = partitionOffsets(handOver);
      List<DataWritten> written;
      try {
        written = manifests(commitId, handOver);
      } catch (RuntimeException e) {
        handOverFailed(commitId, firstOffsets(handOver), e, true, attempt);
        return;
      }
      boolean withFiles = !written.isEmpty();
      ControlChannel.Sent sent =
          send(commitId, written, offsets, handOver.positions(), started, withFiles);
      switch (sent.outcome()) {
        case UNKNOWN -> {
          return; // the party asks again before anything else
        }
        case ABORTED -> {
          handOverFailed(commitId, firstOffsets(handOver), sent.cause(), false, attempt);
          return;
        }
        case COMMITTED -> {}
      }
      long records = written.stream().mapToLong(DataWritten::recordCount).sum();
      if (written.isEmpty()) {
        LOG.debug(
            "Task {} answered cycle {}: nothing new, {} partitions, in {} ms",
            settings.taskId(),
            commitId,
            offsets.size(),
            clock.millis() - started);
        return;
      }
      LOG.info(
          "Task {} answered cycle {}: {} manifests, {} records, {} partitions, in {} ms",
          settings.taskId(),
          commitId,
          written.size(),
          records,
          offsets.size(),
          clock.millis() - started);
    } finally {
      lock.unlock();
    }
  }

  private static Map<TopicPartition, Long> firstOffsets(HandOver handOver) {
    Map<TopicPartition, Long> first = new HashMap<>();
    handOver
        .positions()
        .forEach((partition, position) -> first.put(partition, position.firstOffset()));
    return first;
  }

  /**
   * A hand-over's transaction committed (at once, or when asked again). That ends a run of
   * failures, unless files failed in it and this hand-over had none: only files that reach the
   * object store show that it is back.
   */
  private void handedOver(boolean withFiles) {
    lock.lock();
    try {
      if (withFiles || !filesFailing) {
        party.succeeded();
        filesFailing = false;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * A hand-over failed (files, manifests or the transaction): its partitions are read again on the
   * task thread's next {@code put}, unless failures have lasted longer than the retry timeout.
   *
   * @param files whether files or manifests failed, rather than the transaction
   * @param started when the hand-over began
   */
  private void handOverFailed(
      UUID commitId,
      Map<TopicPartition, Long> rewind,
      RuntimeException e,
      boolean files,
      long started) {
    earliest(rewinds, rewind);
    filesFailing |= files;
    party.failed("hand over its data", e, started);
    LOG.warn(
        "Task {} could not hand over cycle {} ({}); its {} partitions are read again",
        settings.taskId(),
        commitId,
        settings.secrets().mask(e.toString()),
        rewind.size());
  }

  /**
   * Writing a batch failed for a reason that is not the records' (a data file could not be rolled
   * or uploaded): everything since the last hand-over is dropped, and the partitions it came from
   * and those of the batch are read again after a pause.
   */
  private Map<TopicPartition, Long> writeFailed(
      Collection<SinkRecord> records, WriteFailedException e, long started) {
    Map<TopicPartition, Long> rewind = new HashMap<>(writer.reset());
    earliest(rewind, dropped(records));
    filesFailing = true;
    party.failed("write its data", e, started);
    long pause = party.nextBackoffMs();
    resumeAtMs = clock.millis() + pause;
    LOG.warn(
        "Task {} could not write ({}); it drops what it wrote since its last hand-over and reads"
            + " {} partitions again in {} ms",
        settings.taskId(),
        settings.secrets().mask(e.getMessage()),
        rewind.size(),
        pause);
    return rewind;
  }

  private List<DataWritten> manifests(UUID commitId, HandOver handOver) {
    List<DataWritten> events = new ArrayList<>();
    int n = 0;
    // a fresh id per hand-over: another instance of this task (a zombie, or a replacement) may
    // answer the same cycle, and must never write over this hand-over's manifests; every event
    // carries it, so the coordinator takes the hand-over's manifests together
    UUID handOverId = UUID.randomUUID();
    for (TableFiles files : handOver.tables()) {
      String prefix = "floe-" + commitId + "-" + settings.taskId() + "-" + handOverId + "-" + n++;
      for (Manifests.Written manifest : Manifests.write(files, prefix)) {
        DataWritten event =
            DataWritten.of(
                    commitId,
                    files.tableName(),
                    files.table().uuid(),
                    manifest.manifest(),
                    manifest.totalFileSizeBytes())
                .withHandOverId(handOverId);
        // an upsert hand-over's key manifest tells where its changes came from, and its truncates
        events.add(
            event.content() == ManifestContent.DELETES
                ? event.withChangeSources(changeSources(files.files().changeSources()))
                : event);
      }
    }
    return events;
  }

  private static List<ChangeSource> changeSources(ChangeSources sources) {
    List<ChangeSource> list = new ArrayList<>(sources.partitions().size());
    for (TopicPartition partition : sources.partitions()) {
      list.add(
          new ChangeSource(
              partition.topic(), partition.partition(), sources.truncatedAt().get(partition)));
    }
    list.sort(Comparator.comparing(ChangeSource::topic).thenComparingInt(ChangeSource::partition));
    return list;
  }

  private List<PartitionOffset> partitionOffsets(HandOver handOver) {
    Set<TopicPartition> partitions =
        new TreeSet<>(
            (a, b) ->
                a.topic().equals(b.topic())
                    ? Integer.compare(a.partition(), b.partition())
                    : a.topic().compareTo(b.topic()));
    partitions.addAll(assigned);
    partitions.addAll(handOver.positions().keySet());
    List<PartitionOffset> offsets = new ArrayList<>(partitions.size());
    for (TopicPartition partition : partitions) {
      SourcePosition position = handOver.positions().get(partition);
      offsets.add(
          new PartitionOffset(
              partition.topic(),
              partition.partition(),
              position == null ? null : position.nextOffset(),
              position == null || position.maxTimestampMs() < 0
                  ? null
                  : position.maxTimestampMs()));
    }
    return offsets;
  }

  /**
   * Sends a hand-over in one transaction: its {@code DataWritten} events, the {@code DataComplete}
   * of every partition, and the source offsets with the Connect consumer's group metadata.
   *
   * @param started when the answer began
   * @param withFiles whether it hands data files over
   */
  private ControlChannel.Sent send(
      UUID commitId,
      List<DataWritten> written,
      List<PartitionOffset> offsets,
      Map<TopicPartition, SourcePosition> positions,
      long started,
      boolean withFiles) {
    ConsumerGroupMetadata group = groupMetadata;
    long now = clock.millis();
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(written.size() + 1);
    for (DataWritten event : written) {
      records.add(party.record(now, event));
    }
    records.add(party.record(now, new DataComplete(commitId, offsets)));
    Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
    positions.forEach(
        (partition, position) ->
            commit.put(partition, new OffsetAndMetadata(position.nextOffset())));
    return party.send(
        "its hand-over of cycle " + commitId,
        records,
        commit,
        group,
        started,
        () -> handedOver(withFiles));
  }

  private void requestCommit() {
    long pending;
    lock.lock();
    try {
      pending = writer.bufferedBytes();
    } finally {
      lock.unlock();
    }
    long started = clock.millis();
    ControlChannel.Sent sent =
        party.send(
            "its early commit request",
            List.of(party.record(started, new CommitRequest(pending))),
            Map.of(),
            groupMetadata,
            started,
            () -> {});
    switch (sent.outcome()) {
      case COMMITTED ->
          LOG.debug(
              "Task {} asked for an early commit ({} bytes pending)", settings.taskId(), pending);
      case UNKNOWN -> {} // the party asks again before anything else
      case ABORTED ->
          LOG.warn(
              "Task {} could not ask for an early commit: {}",
              settings.taskId(),
              settings.secrets().mask(sent.cause().toString()));
    }
  }

  /**
   * Stops the control thread (waiting {@link ControlLoop#STOP_TIMEOUT} at most) and closes the
   * writer, abandoning what it did not hand over. A control thread stuck in a hand-over keeps the
   * writer; it is left to it.
   */
  @Override
  public void close() {
    party.stop();
    boolean locked;
    try {
      locked = lock.tryLock(ControlLoop.STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      locked = false;
    }
    if (!locked) {
      LOG.warn("Task {} leaves its writer to its control thread, still busy", settings.taskId());
      return;
    }
    try {
      writer.close();
    } finally {
      lock.unlock();
    }
  }
}

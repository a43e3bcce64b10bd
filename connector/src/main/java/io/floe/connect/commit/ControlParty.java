/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.control.ControlChannel;
import io.floe.connect.control.ControlEvent;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.EventCodec;
import io.floe.connect.control.EventHeader;
import io.floe.connect.control.KafkaClients;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One party to the control topic, a task's {@link Worker} or the connector's {@link Coordinator},
 * and what both do alike, so that the worker keeps only its hand-over and the coordinator only its
 * cycle:
 *
 * <ul>
 *   <li>its {@link ControlChannel}, and the {@link ControlLoop} thread that runs the owner's first
 *       step and turns under one guard: a step that throws stops the thread, and the failure, its
 *       secrets masked, is thrown to the task thread by {@link #checkHealthy};
 *   <li>reading: the events of the party's connector that the owner asks for, decoded; a record
 *       that is not a Floe event is skipped;
 *   <li>sending, one transaction at a time. Fencing stops the party, naming who took over. A
 *       transaction whose commit timed out may have committed: on each turn, before anything else,
 *       Kafka is asked again until it says committed; still unknown past the retry timeout, or any
 *       other answer, and the party stops without reading anything again;
 *   <li>the run of the owner's failed attempts, given up after the retry timeout ({@link
 *       RetryBudget}: a run counts from the start of its first failed attempt). It is not
 *       thread-safe: a worker, whose task thread writes, calls it under its lock.
 * </ul>
 */
final class ControlParty {
  private static final Logger LOG = LoggerFactory.getLogger(ControlParty.class);
  private static final Duration POLL = Duration.ofMillis(100);

  /** How long the coordinator waits for the end of the control topic before a scan for orphans. */
  private static final Duration ENDS_TIMEOUT = Duration.ofSeconds(10);

  /** A worker's pause after a failed write: 0.5 s, doubling up to 5 s. */
  private static final long WORKER_FIRST_BACKOFF_MS = 500;

  private static final long WORKER_MAX_BACKOFF_MS = 5_000;

  /** The coordinator tries a failed control transaction again a second later. */
  private static final long COORDINATOR_BACKOFF_MS = 1_000;

  /** The owner's part of a poll: an event of its connector, decoded, and where it was read. */
  @FunctionalInterface
  interface EventHandler {
    void handle(ConsumerRecord<byte[], byte[]> record, EventHeader header, ControlEvent event);
  }

  /**
   * What sets a worker and a coordinator apart: how each names itself and tells what its failures
   * leave behind, how it opens its channel and how it paces its retries.
   *
   * @param name the party in what it says of its thread and clients
   * @param sender the party in what it says of what it sent
   * @param successor who fences it
   * @param resume where the party's successor reads on from after an unknown outcome
   * @param lost what failures past the retry timeout leave behind
   * @param opener opens its channel
   */
  private record Role(
      String name,
      String sender,
      String thread,
      String transactionalId,
      String successor,
      String resume,
      String lost,
      Supplier<ControlChannel> opener,
      long firstBackoffMs,
      long maxBackoffMs) {}

  /**
   * A transaction whose commit timed out: it may or may not have committed.
   *
   * @param what what it carried, for messages
   * @param sinceMs when its attempt began
   * @param whenCommitted what the owner does once it is known committed
   */
  private record Uncertain(String what, long sinceMs, Runnable whenCommitted) {}

  private final Role role;
  private final ControlSettings settings;
  private final String groupId;
  private final Clock clock;
  private final RetryBudget retries;
  private final RetryBudget asking;
  private final Runnable ownerFirst;
  private final Runnable ownerTurn;
  private final ControlLoop loop;
  private final EventCodec codec = new EventCodec();
  private volatile ControlChannel channel;

  /**
   * The offset after the last record handled, by control partition, since the channel opened: a
   * record at a lower offset is one the consumer delivered again and was handled already.
   */
  private final Map<Integer, Long> nextOffsets = new HashMap<>();

  private volatile RuntimeException failure;
  private Uncertain uncertain;

  private ControlParty(
      ControlSettings settings,
      String groupId,
      Clock clock,
      Role role,
      Runnable first,
      Runnable turn) {
    this.role = role;
    this.settings = settings;
    this.groupId = groupId;
    this.clock = clock;
    this.retries =
        new RetryBudget(settings.retryTimeout(), role.firstBackoffMs(), role.maxBackoffMs(), clock);
    this.asking = new RetryBudget(settings.retryTimeout(), clock);
    this.ownerFirst = first;
    this.ownerTurn = turn;
    this.loop = new ControlLoop(role.thread(), this::first, this::turn, this::release);
  }

  /**
   * A task's worker. It reads from the end of the control topic: only cycles started from then on
   * concern it. Its clients are opened by {@link #openChannel} before the thread starts.
   *
   * @param groupId the connector's Connect consumer group
   * @param turn the worker's turn: it polls through {@link #poll} and answers
   */
  static ControlParty worker(
      ControlSettings settings,
      String groupId,
      KafkaClients clients,
      ControlTopic topic,
      Clock clock,
      Runnable turn) {
    String taskId = settings.taskId();
    Role role =
        new Role(
            "Worker of task " + taskId,
            "Task " + taskId,
            "floe-worker-" + taskId,
            settings.workerTransactionalId(),
            "another instance of this task took over",
            "a restart resumes from the offsets Kafka holds for the connector's group, which"
                + " include the hand-over if and only if it was committed",
            "nothing it wrote since then is committed, and a restart reads it again",
            () ->
                ControlChannel.fromEnd(
                    clients, topic, settings.workerTransactionalId(), "worker", taskId, taskId),
            WORKER_FIRST_BACKOFF_MS,
            WORKER_MAX_BACKOFF_MS);
    return new ControlParty(settings, groupId, clock, role, () -> {}, turn);
  }

  /**
   * The connector's coordinator. It reads from the control position its group committed, or from
   * the earliest offset.
   *
   * @param groupId the Connect consumer group of the connector
   * @param first the coordinator's first step, on its thread: it opens the clients ({@link
   *     #openChannel})
   * @param turn the coordinator's turn: it polls through {@link #poll} and advances the cycle
   */
  static ControlParty coordinator(
      ControlSettings settings,
      String groupId,
      KafkaClients clients,
      ControlTopic topic,
      Clock clock,
      Runnable first,
      Runnable turn) {
    String connector = settings.connectorName();
    String name = "The coordinator of connector " + connector;
    Role role =
        new Role(
            name,
            name,
            "floe-coordinator-" + connector,
            settings.coordinatorTransactionalId(),
            "a newer coordinator took over",
            "a restarted coordinator reads on from what Kafka holds",
            "a restarted coordinator reads the control topic again from its committed position",
            () ->
                ControlChannel.fromCommitted(
                    clients,
                    topic,
                    settings.coordinatorTransactionalId(),
                    "coordinator",
                    connector,
                    settings.coordinatorGroupId(),
                    connector + "-coordinator"),
            COORDINATOR_BACKOFF_MS,
            COORDINATOR_BACKOFF_MS);
    return new ControlParty(settings, groupId, clock, role, first, turn);
  }

  /** Opens the party's control clients, on the calling thread. */
  void openChannel() {
    channel = role.opener().get();
    nextOffsets.clear();
  }

  /** Starts the thread: the first step, then turns until a step fails or {@link #stop}. */
  void start() {
    loop.start();
  }

  /** False once {@link #stop} was called. */
  boolean running() {
    return loop.running();
  }

  /**
   * The owner's first step, guarded, as the thread runs it (tests run it by hand).
   *
   * @return false when it failed (then {@link #checkHealthy} throws)
   */
  boolean first() {
    return guarded(ownerFirst);
  }

  /**
   * One turn, guarded, as the thread runs it (tests run it by hand): the owner's turn, unless a
   * transaction whose commit timed out is still unsettled.
   *
   * @return false when the party failed (then {@link #checkHealthy} throws)
   */
  boolean turn() {
    if (failure != null) {
      return false; // the task thread gave up (see failed)
    }
    return guarded(
        () -> {
          if (uncertain == null || settle()) {
            ownerTurn.run();
          }
        });
  }

  /** Throws the failure of the party's thread, if it failed. */
  void checkHealthy() {
    RuntimeException failed = failure;
    if (failed != null) {
      throw failed;
    }
  }

  /**
   * Polls the control topic once and hands the owner each event of the party's connector that
   * {@code wanted} accepts, decoded, and each at most once: a record delivered again (below the
   * offset after the last one handled in its partition) is skipped, so that no owner takes an event
   * twice (a worker would answer a cycle twice, the coordinator would reopen a finished answer).
   * Kafka's consumer delivers a record again only after a seek, and the channel never seeks once
   * open; this holds whatever the consumer does.
   */
  void poll(Predicate<EventHeader> wanted, EventHandler handler) {
    for (ConsumerRecord<byte[], byte[]> record : channel.poll(POLL)) {
      long next = nextOffsets.getOrDefault(record.partition(), Long.MIN_VALUE);
      if (record.offset() < next) {
        continue;
      }
      nextOffsets.put(record.partition(), record.offset() + 1);
      if (record.value() == null) {
        continue;
      }
      EventHeader header;
      try {
        header = EventCodec.peekHeader(record.value());
      } catch (RuntimeException e) {
        LOG.debug("Skipping a control record that is not a Floe event at {}", record.offset());
        continue;
      }
      if (header.isFor(groupId) && wanted.test(header)) {
        handler.handle(record, header, codec.decode(record.value()).event());
      }
    }
  }

  /** An event of the party, sent at {@code nowMs}, in the control topic's wire format. */
  ProducerRecord<byte[], byte[]> record(long nowMs, ControlEvent event) {
    return channel.record(groupId, nowMs, event);
  }

  /** The committed control offsets the party started from (the coordinator's). */
  Map<TopicPartition, OffsetAndMetadata> startedFrom() {
    return channel.startedFrom();
  }

  /** The consumer's position in each control partition, by partition number. */
  Map<Integer, Long> position() {
    return channel.position();
  }

  /** The end of each control partition, as the broker says now; empty if it does not say. */
  Optional<Map<Integer, Long>> ends() {
    return channel.ends(ENDS_TIMEOUT);
  }

  /** Control records not read yet, as far as the consumer knows. */
  long lag() {
    return channel.lag();
  }

  /**
   * Sends in one transaction. Committed, {@code whenCommitted} runs. Aborted, nothing of it is
   * visible: the owner counts the failure ({@link #failed}) and tries again. A commit that timed
   * out leaves the outcome unknown: the party asks Kafka again on its next turns before anything
   * else, and runs {@code whenCommitted} once it is known committed. Fencing fails the party.
   *
   * @param what what the transaction carries, for messages ("its hand-over of cycle …")
   * @param offsets consumer offsets committed with it for {@code group}; empty for none
   * @param attemptStartedMs when the attempt began: an unknown outcome is given up on the retry
   *     timeout after it
   */
  ControlChannel.Sent send(
      String what,
      List<ProducerRecord<byte[], byte[]>> records,
      Map<TopicPartition, OffsetAndMetadata> offsets,
      ConsumerGroupMetadata group,
      long attemptStartedMs,
      Runnable whenCommitted) {
    ControlChannel.Sent sent;
    try {
      sent = channel.send(records, offsets, group);
    } catch (ProducerFencedException | InvalidProducerEpochException e) {
      throw fenced(what + " is not committed", e);
    }
    if (sent.committed()) {
      whenCommitted.run();
    } else if (sent.outcome() == ControlChannel.Outcome.UNKNOWN) {
      uncertain = new Uncertain(what, attemptStartedMs, whenCommitted);
      asking.succeeded();
      LOG.warn(
          "{} does not know whether {} was committed ({}): it asks Kafka again before anything"
              + " else, and reads nothing again meanwhile",
          role.sender(),
          what,
          mask(sent.cause()));
    }
    return sent;
  }

  /**
   * Asks Kafka again to commit the transaction whose commit timed out. Its outcome is unknown: it
   * may have committed, so nothing it carried is read again (that could write it twice) and nothing
   * else is sent until it is settled. A commit that times out again is asked again on the next
   * turn, up to the retry timeout after the attempt began; any other answer leaves the outcome
   * unknown and fails the party: its successor reads on from what Kafka holds, which includes the
   * transaction if and only if it was committed.
   *
   * @return whether it is settled (committed)
   */
  private boolean settle() {
    Uncertain pending = uncertain;
    ControlChannel.Sent sent;
    try {
      sent = channel.commitAgain();
    } catch (ProducerFencedException | InvalidProducerEpochException e) {
      throw fenced("whether " + pending.what() + " was committed is unknown: " + role.resume(), e);
    } catch (IllegalStateException e) {
      throw unsettled(pending, "asking again failed", e);
    }
    if (sent.outcome() == ControlChannel.Outcome.UNKNOWN) {
      if (asking.failed(pending.sinceMs())) {
        throw unsettled(
            pending,
            "is still unknown after " + asking.elapsedMs() + " ms, " + asking.longerThanTimeout(),
            sent.cause());
      }
      return false;
    }
    if (!sent.committed()) {
      throw unsettled(pending, "asking again failed", sent.cause());
    }
    uncertain = null;
    pending.whenCommitted().run();
    LOG.info(
        "{} committed {} on asking again, {} ms after the first try",
        role.sender(),
        pending.what(),
        clock.millis() - pending.sinceMs());
    return true;
  }

  private ConnectException unsettled(Uncertain pending, String why, RuntimeException cause) {
    return new ConnectException(
        role.sender()
            + " cannot tell whether "
            + pending.what()
            + " was committed: the commit of its Kafka transaction, begun at "
            + Instant.ofEpochMilli(pending.sinceMs())
            + ", timed out and "
            + why
            + ". It stops without reading anything again; "
            + role.resume()
            + ". Last cause: "
            + mask(cause),
        cause);
  }

  private ConnectException fenced(String consequence, RuntimeException e) {
    return new ConnectException(
        role.name()
            + " was fenced: "
            + role.successor()
            + " (transactional id "
            + role.transactionalId()
            + ")"
            + (consequence == null ? "" : "; " + consequence)
            + ".",
        e);
  }

  /**
   * Counts a failed attempt of the owner's (a worker's write or hand-over, the coordinator's
   * control transaction) in the current run of failures, which began when its first failed attempt
   * began.
   *
   * @param what what the party failed to do ("hand over its data")
   * @throws ConnectException when the run has lasted longer than the retry timeout
   */
  void failed(String what, RuntimeException cause, long attemptStartedMs) {
    if (retries.failed(attemptStartedMs)) {
      // the party is failed for good, whichever thread gave up: the task thread's next call throws
      // and the control thread's next turn does nothing. A task thread that gave up on a write
      // has dropped what it wrote, so nothing after it may be handed over, even if a runtime
      // (wrongly) went on calling it
      RuntimeException gaveUp = settings.secrets().guard(gaveUp(what, cause));
      failure = gaveUp;
      throw gaveUp;
    }
  }

  private ConnectException gaveUp(String what, RuntimeException cause) {
    return new ConnectException(
        role.sender()
            + " has failed to "
            + what
            + " since "
            + retries.since()
            + " ("
            + retries.longerThanTimeout()
            + "); "
            + role.lost()
            + ". Last cause: "
            + mask(cause),
        cause);
  }

  /** A success of the owner's: the run of failures is over. */
  void succeeded() {
    retries.succeeded();
  }

  /** The pause before the owner's next attempt: doubles within a run of failures, up to a cap. */
  long nextBackoffMs() {
    return retries.nextBackoffMs();
  }

  private String mask(RuntimeException e) {
    return settings.secrets().mask(e.toString());
  }

  /**
   * Runs a step of the thread.
   *
   * @return false when it failed
   */
  private boolean guarded(Runnable step) {
    try {
      step.run();
      return true;
    } catch (WakeupException e) {
      fail(
          new ConnectException(
              role.name() + " was woken up unexpectedly in a call to its control consumer", e));
    } catch (ProducerFencedException | InvalidProducerEpochException e) {
      fail(fenced(null, e));
    } catch (RuntimeException e) {
      fail(e);
    } catch (Error e) {
      fail(new ConnectException(role.name() + " failed: " + e, e));
    }
    return false;
  }

  /** Records the failure the task thread is told of; none once the party is stopping. */
  private void fail(RuntimeException error) {
    if (!loop.running()) {
      return; // stopped: a wakeup or a closed client is how the stop ends a step
    }
    RuntimeException e = settings.secrets().guard(error);
    LOG.error("{} stopped: {}", role.name(), e.getMessage(), e);
    failure =
        e instanceof ConnectException ? e : new ConnectException(role.name() + " failed: " + e, e);
  }

  /**
   * Stops the thread, waking up its poll, and waits {@link ControlLoop#STOP_TIMEOUT} at most. The
   * clients are closed as the thread ends (at once if it never ran).
   */
  void stop() {
    loop.stop(
        () -> {
          ControlChannel open = channel;
          if (open != null) {
            open.wakeup();
          }
        });
  }

  /** Closes the control clients: by the thread as it ends, or by {@link #stop}. */
  private void release() {
    ControlChannel open = channel;
    if (open != null) {
      open.close();
    }
  }
}

/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * A Kafka authorization failure of the control clients, told as the resource that was refused and
 * the ACL that allows it, so that a missing grant reads as what to grant.
 */
public final class MissingAcl {
  /** What a control client was doing on a topic, and so which operation a topic ACL must allow. */
  public enum TopicUse {
    READ("read", "READ"),
    WRITE("write to", "WRITE"),
    CREATE("create", "CREATE");

    private final String verb;
    private final String operation;

    TopicUse(String verb, String operation) {
      this.verb = verb;
      this.operation = operation;
    }
  }

  private MissingAcl() {}

  /**
   * @param use what the client was doing on the control topic
   * @param controlTopic the topic named when Kafka does not say which one it refused
   * @param transactionalId the client's transactional id, or null for a consumer or admin client
   */
  public static ConnectException explain(
      AuthorizationException e, TopicUse use, String controlTopic, String transactionalId) {
    return new ConnectException(message(e, use, controlTopic, transactionalId), e);
  }

  static String message(
      AuthorizationException e, TopicUse use, String controlTopic, String transactionalId) {
    String what;
    String grant;
    if (e instanceof TransactionalIdAuthorizationException && transactionalId != null) {
      what = "use the transactional id " + transactionalId;
      grant =
          "WRITE on transactional id "
              + transactionalId
              + " (or on its prefix, with --resource-pattern-type prefixed: see"
              + " iceberg.control.transactional-id-prefix)";
    } else if (e instanceof TopicAuthorizationException topics) {
      Set<String> names = new TreeSet<>(topics.unauthorizedTopics());
      if (names.isEmpty()) {
        names.add(controlTopic);
      }
      String listed = String.join(", ", names);
      what = use.verb + " topic " + listed;
      grant =
          use.operation
              + " on topic "
              + listed
              + (use == TopicUse.CREATE ? ", or create the topic beforehand" : "");
    } else if (e instanceof GroupAuthorizationException group && group.groupId() != null) {
      what = "use the consumer group " + group.groupId();
      grant = "READ on group " + group.groupId();
    } else if (e instanceof ClusterAuthorizationException) {
      what = "send idempotent or transactional records";
      grant =
          "WRITE on transactional id "
              + transactionalId
              + " (brokers before Kafka 2.8 also need IDEMPOTENT_WRITE on the cluster)";
    } else {
      what = use.verb + " the control topic " + controlTopic;
      grant =
          "the ACLs listed in the README's \"Least privilege\" section, for control topic "
              + controlTopic;
    }
    return "The control clients are not authorised to "
        + what
        + " ("
        + e.getMessage()
        + "). Grant the connector's principal "
        + grant
        + ".";
  }
}

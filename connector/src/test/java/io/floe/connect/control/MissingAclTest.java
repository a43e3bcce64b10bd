/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class MissingAclTest {
  private static final String TOPIC = "floe-control";
  private static final String TXN = "etl-floe-orders-worker-0";

  private static String explained(AuthorizationException e, MissingAcl.TopicUse use) {
    ConnectException explained = MissingAcl.explain(e, use, TOPIC, TXN);
    assertThat(explained).hasCause(e);
    return explained.getMessage();
  }

  @Test
  void aRefusedTransactionalIdNamesItAndThePrefixKey() {
    assertThat(
            explained(
                new TransactionalIdAuthorizationException("Transactional Id authorization failed."),
                MissingAcl.TopicUse.WRITE))
        .startsWith("The control clients are not authorised to use the transactional id " + TXN)
        .contains("Grant the connector's principal WRITE on transactional id " + TXN)
        .contains("iceberg.control.transactional-id-prefix");
  }

  @Test
  void aRefusedTopicNamesTheTopicKafkaRefusedAndTheOperationOfTheUse() {
    TopicAuthorizationException refused = new TopicAuthorizationException(Set.of("other"));
    assertThat(explained(refused, MissingAcl.TopicUse.READ))
        .contains("not authorised to read topic other")
        .contains("Grant the connector's principal READ on topic other.");
    assertThat(explained(refused, MissingAcl.TopicUse.WRITE))
        .contains("not authorised to write to topic other")
        .contains("WRITE on topic other.");
  }

  @Test
  void aTopicRefusalWithoutNamesIsTheControlTopicAndCreateOffersPreCreating() {
    assertThat(
            explained(
                new TopicAuthorizationException("Authorization failed."),
                MissingAcl.TopicUse.CREATE))
        .contains("not authorised to create topic " + TOPIC + " (Authorization failed.)")
        .contains("CREATE on topic " + TOPIC + ", or create the topic beforehand");
  }

  @Test
  void aRefusedGroupNamesTheGroupAndRead() {
    assertThat(
            explained(
                GroupAuthorizationException.forGroupId("connect-orders"),
                MissingAcl.TopicUse.WRITE))
        .contains("not authorised to use the consumer group connect-orders")
        .contains("Grant the connector's principal READ on group connect-orders.");
  }

  @Test
  void aRefusedClusterActionNamesTheTransactionalIdAndOldBrokers() {
    assertThat(
            explained(
                new ClusterAuthorizationException("Cluster authorization failed."),
                MissingAcl.TopicUse.WRITE))
        .contains("WRITE on transactional id " + TXN)
        .contains("IDEMPOTENT_WRITE on the cluster");
  }
}

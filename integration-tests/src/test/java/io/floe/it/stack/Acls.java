/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/** Grants and revokes ACLs on a broker started with {@link KafkaSecurity}, as its super user. */
public final class Acls {
  private Acls() {}

  /** An ALLOW of {@code operation} on a resource, from any host. */
  public static AclBinding allow(
      String principal,
      ResourceType type,
      String name,
      PatternType pattern,
      AclOperation operation) {
    return new AclBinding(
        new ResourcePattern(type, name, pattern),
        new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
  }

  /** ALLOWs of each operation on a literal resource. */
  public static List<AclBinding> allowLiteral(
      String principal, ResourceType type, String name, AclOperation... operations) {
    return List.of(operations).stream()
        .map(op -> allow(principal, type, name, PatternType.LITERAL, op))
        .toList();
  }

  /** ALLOWs of each operation on every resource whose name starts with {@code prefix}. */
  public static List<AclBinding> allowPrefixed(
      String principal, ResourceType type, String prefix, AclOperation... operations) {
    return List.of(operations).stream()
        .map(op -> allow(principal, type, prefix, PatternType.PREFIXED, op))
        .toList();
  }

  public static void create(Admin admin, Collection<AclBinding> acls) {
    await(admin.createAcls(acls).all(), "create");
  }

  public static void delete(Admin admin, Collection<AclBinding> acls) {
    await(admin.deleteAcls(acls.stream().map(AclBinding::toFilter).toList()).all(), "delete");
  }

  private static void await(org.apache.kafka.common.KafkaFuture<?> future, String what) {
    try {
      future.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Cannot " + what + " ACLs", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.floe.connect.commit.ConnectConsumerAccess;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What README.md's compatibility section promises about Kafka: Floe uses Kafka's public API, and
 * each way around it stays in the one class named there. A new reflective call or a reference to a
 * Connect runtime or Kafka internals class fails the build.
 */
class KafkaSeamsTest {
  private static final String PLUGIN_METRICS_ACCESS = "io.floe.connect.metrics.PluginMetricsAccess";

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.floe.connect");
  }

  @Test
  void noClassUsesTheConnectRuntimeOrKafkaInternals() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.apache.kafka.connect.runtime..",
            "org.apache.kafka..internals..",
            "kafka..",
            "org.apache.kafka.server..")
        .because("Floe runs on the Connect API of every supported worker")
        .check(classes);
  }

  @Test
  void onlyConnectConsumerAccessOpensPrivateMembers() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(ConnectConsumerAccess.class.getName())
        .should()
        .callMethod(AccessibleObject.class, "setAccessible", boolean.class)
        .orShould()
        .callMethod(Class.class, "getDeclaredField", String.class)
        .orShould()
        .callMethod(Class.class, "getDeclaredFields")
        .orShould()
        .callMethod(Class.class, "getDeclaredMethod", String.class, Class[].class)
        .because("the consumer's group metadata is the one private member Floe reads")
        .check(classes);
  }

  @Test
  void onlyTheTwoSeamsCallMethodsByReflection() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(ConnectConsumerAccess.class.getName())
        .and()
        .doNotHaveFullyQualifiedName(PLUGIN_METRICS_ACCESS)
        .should()
        .callMethod(Method.class, "invoke", Object.class, Object[].class)
        .orShould()
        .callMethod(Class.class, "getMethod", String.class, Class[].class)
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.lang.reflect.Field")
        .because("reflection on Connect lives in ConnectConsumerAccess and PluginMetricsAccess")
        .check(classes);
  }
}

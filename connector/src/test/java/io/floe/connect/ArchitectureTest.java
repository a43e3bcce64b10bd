/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.floe.connect.commit.ConnectConsumerAccess;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The package arrows of ARCHITECTURE.md, checked on the compiled classes: an import that adds an
 * arrow, or closes a cycle, fails the build. Change the map below together with ARCHITECTURE.md.
 * Also the Kafka seams of README.md: a new reflective call, or a reference to a Connect runtime or
 * Kafka internals class, fails the build.
 */
class ArchitectureTest {
  private static final String ROOT = "io.floe.connect";

  /** Each package and the Floe packages it may use; the root package may use every one. */
  static final Map<String, Set<String>> ARROWS = new LinkedHashMap<>();

  static {
    ARROWS.put("version", Set.of());
    ARROWS.put("metrics", Set.of());
    ARROWS.put("convert", Set.of());
    ARROWS.put("control", Set.of());
    ARROWS.put("memory", Set.of());
    ARROWS.put("cdc", Set.of("memory"));
    ARROWS.put("files", Set.of());
    ARROWS.put("branch", Set.of());
    ARROWS.put("deletes", Set.of("branch", "files", "memory"));
    ARROWS.put("avro", Set.of("contract", "version"));
    ARROWS.put("json", Set.of("version"));
    ARROWS.put("contract", Set.of());
    ARROWS.put("config", Set.of("cdc", "contract", "convert"));
    ARROWS.put("catalog", Set.of("config"));
    ARROWS.put("route", Set.of("config"));
    ARROWS.put("schema", Set.of("avro", "catalog", "convert"));
    ARROWS.put(
        "write",
        Set.of(
            "catalog",
            "cdc",
            "config",
            "contract",
            "convert",
            "files",
            "json",
            "metrics",
            "route",
            "schema"));
    ARROWS.put("errors", Set.of("write"));
    ARROWS.put("maintain", Set.of("branch", "files", "metrics"));
    ARROWS.put(
        "commit",
        Set.of(
            "branch", "config", "contract", "control", "deletes", "maintain", "metrics", "write"));
  }

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);
  }

  static Set<String> packages() {
    return ARROWS.keySet();
  }

  @ParameterizedTest
  @MethodSource("packages")
  void aPackageUsesOnlyThePackagesItsArrowsAllow(String pkg) {
    Set<String> forbidden = new TreeSet<>(ARROWS.keySet());
    forbidden.remove(pkg);
    forbidden.removeAll(ARROWS.get(pkg));
    String[] names = forbidden.stream().map(p -> ROOT + "." + p + "..").toArray(String[]::new);
    noClasses()
        .that()
        .resideInAPackage(ROOT + "." + pkg + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(names)
        .because("ARCHITECTURE.md allows " + pkg + " to use only " + ARROWS.get(pkg))
        .check(classes);
  }

  @Test
  void noPackageUsesTheRootPackage() {
    noClasses()
        .that()
        .resideInAPackage(ROOT + ".*..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(ROOT)
        .because("the root package only wires the connector and its task")
        .check(classes);
  }

  @Test
  void thePackagesFormNoCycle() {
    slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void everyPackageHasItsArrows() {
    Set<String> found = new TreeSet<>();
    classes.forEach(
        c -> {
          String name = c.getPackageName();
          if (name.startsWith(ROOT + ".")) {
            found.add(name.substring(ROOT.length() + 1).split("\\.")[0]);
          }
        });
    org.assertj.core.api.Assertions.assertThat(ARROWS.keySet())
        .as("packages listed in the architecture test and ARCHITECTURE.md")
        .containsExactlyInAnyOrderElementsOf(found);
  }

  // What README.md's compatibility section promises about Kafka: Floe uses Kafka's public API,
  // and each way around it stays in the one class named there.

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
        .doNotHaveFullyQualifiedName("io.floe.connect.metrics.PluginMetricsAccess")
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

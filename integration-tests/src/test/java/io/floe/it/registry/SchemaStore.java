/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * The registry's state in memory: schemas by global id, and per subject its versions, each pointing
 * at a global id. Ids belong to schema content: the same canonical schema has one id in every
 * subject. All methods are synchronized, so a registration sees and changes one consistent state.
 */
final class SchemaStore {
  private final CompatibilityConfig config;
  private final Map<String, Integer> idByCanonical = new HashMap<>();
  private final Map<Integer, AvroSchemas.Parsed> schemaById = new HashMap<>();
  private final Map<String, NavigableMap<Integer, Entry>> subjects = new TreeMap<>();
  private int nextId = 1;

  SchemaStore(CompatibilityConfig config) {
    this.config = config;
  }

  /** One version of a subject; soft-deleted versions are kept, marked. */
  private record Entry(int id, boolean deleted) {}

  /** A subject's version as the API shows it. */
  record SchemaVersion(String subject, int version, int id, String schema) {}

  /** A place a global id is used. */
  record SubjectVersion(String subject, int version) {}

  /**
   * Registers a schema under a subject and returns its global id. A schema already live in the
   * subject keeps its version; otherwise it must pass the subject's compatibility level against the
   * live versions, and becomes the next version.
   *
   * @throws RegistryException 409 when the schema is incompatible
   */
  synchronized int register(String subject, AvroSchemas.Parsed candidate) {
    NavigableMap<Integer, Entry> versions = subjects.getOrDefault(subject, new TreeMap<>());
    Integer knownId = idByCanonical.get(candidate.canonical());
    for (Entry entry : versions.values()) {
      if (!entry.deleted() && knownId != null && entry.id() == knownId) {
        return knownId;
      }
    }
    checkCompatible(subject, candidate.schema(), versions);
    int id = knownId != null ? knownId : newId(candidate);
    int version = versions.isEmpty() ? 1 : versions.lastKey() + 1;
    subjects.computeIfAbsent(subject, s -> new TreeMap<>()).put(version, new Entry(id, false));
    return id;
  }

  private void checkCompatible(
      String subject, Schema candidate, NavigableMap<Integer, Entry> versions) {
    List<CompatibilityLevel.Previous> previous = new ArrayList<>();
    versions
        .descendingMap()
        .forEach(
            (version, entry) -> {
              if (!entry.deleted()) {
                Schema schema = schemaById.get(entry.id()).schema();
                previous.add(new CompatibilityLevel.Previous(version, schema));
              }
            });
    CompatibilityLevel level = config.effective(subject);
    List<String> details = new ArrayList<>(level.problems(candidate, previous));
    if (!details.isEmpty()) {
      details.add("{compatibility: '" + level + "'}");
      throw RegistryException.incompatibleSchema(
          "Schema being registered is incompatible with an earlier schema for subject \""
              + subject
              + "\", details: "
              + details);
    }
  }

  private int newId(AvroSchemas.Parsed schema) {
    int id = nextId++;
    idByCanonical.put(schema.canonical(), id);
    schemaById.put(id, schema);
    return id;
  }

  /**
   * The newest version of the subject holding this schema.
   *
   * @throws RegistryException 40401 for an unknown subject, 40403 when the schema is not in it
   */
  synchronized SchemaVersion lookup(String subject, String canonical, boolean includeDeleted) {
    NavigableMap<Integer, Entry> versions = visible(subject, includeDeleted);
    Integer id = idByCanonical.get(canonical);
    for (Map.Entry<Integer, Entry> version : versions.descendingMap().entrySet()) {
      if (id != null && version.getValue().id() == id) {
        return view(subject, version.getKey(), id);
      }
    }
    throw RegistryException.schemaNotFound();
  }

  /**
   * One version of a subject.
   *
   * @throws RegistryException 40401 for an unknown subject, 40402 for an unknown version
   */
  synchronized SchemaVersion version(String subject, VersionRef ref, boolean includeDeleted) {
    NavigableMap<Integer, Entry> versions = visible(subject, includeDeleted);
    int number = ref.isLatest() ? versions.lastKey() : ref.number();
    Entry entry = versions.get(number);
    if (entry == null) {
      throw RegistryException.versionNotFound(ref.number());
    }
    return view(subject, number, entry.id());
  }

  /** The subject's version numbers, ascending; 40401 for an unknown subject. */
  synchronized List<Integer> versions(String subject, boolean includeDeleted) {
    return new ArrayList<>(visible(subject, includeDeleted).keySet());
  }

  /** The subjects with at least one version, sorted. */
  synchronized List<String> subjects(boolean includeDeleted) {
    List<String> names = new ArrayList<>();
    subjects.forEach(
        (subject, versions) -> {
          if (versions.values().stream().anyMatch(e -> includeDeleted || !e.deleted())) {
            names.add(subject);
          }
        });
    return names;
  }

  /** The canonical schema of a global id; 40403 for an unknown id. */
  synchronized String schema(int id) {
    AvroSchemas.Parsed schema = schemaById.get(id);
    if (schema == null) {
      throw RegistryException.schemaNotFound(id);
    }
    return schema.canonical();
  }

  /** Where a global id is used, by subject then version; 40403 for an unknown id. */
  synchronized List<SubjectVersion> usesOf(int id, boolean includeDeleted) {
    schema(id);
    List<SubjectVersion> uses = new ArrayList<>();
    subjects.forEach(
        (subject, versions) ->
            versions.forEach(
                (version, entry) -> {
                  if (entry.id() == id && (includeDeleted || !entry.deleted())) {
                    uses.add(new SubjectVersion(subject, version));
                  }
                }));
    return uses;
  }

  /** The distinct subjects using a global id; 40403 for an unknown id. */
  synchronized List<String> subjectsOf(int id, boolean includeDeleted) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    usesOf(id, includeDeleted).forEach(use -> names.add(use.subject()));
    return new ArrayList<>(names);
  }

  /**
   * Deletes a subject: soft deletion marks its live versions, permanent deletion (allowed only once
   * all are soft-deleted) forgets them. Global ids stay resolvable either way.
   *
   * @return the versions deleted
   */
  synchronized List<Integer> deleteSubject(String subject, boolean permanent) {
    NavigableMap<Integer, Entry> versions = subjects.get(subject);
    if (versions == null || versions.isEmpty()) {
      throw RegistryException.subjectNotFound(subject);
    }
    List<Integer> live = new ArrayList<>();
    versions.forEach(
        (version, entry) -> {
          if (!entry.deleted()) {
            live.add(version);
          }
        });
    if (permanent) {
      if (!live.isEmpty()) {
        throw RegistryException.subjectNotSoftDeleted(subject);
      }
      subjects.remove(subject);
      return new ArrayList<>(versions.keySet());
    }
    if (live.isEmpty()) {
      throw RegistryException.subjectSoftDeleted(subject);
    }
    live.forEach(version -> versions.put(version, new Entry(versions.get(version).id(), true)));
    return live;
  }

  /**
   * Deletes one version, softly or (once soft-deleted) permanently; {@code latest} means the newest
   * live version for a soft deletion, the newest of all for a permanent one.
   *
   * @return the version number deleted
   */
  synchronized int deleteVersion(String subject, VersionRef ref, boolean permanent) {
    NavigableMap<Integer, Entry> versions = subjects.get(subject);
    if (versions == null || versions.isEmpty()) {
      throw RegistryException.subjectNotFound(subject);
    }
    int number = ref.isLatest() ? latestToDelete(versions, permanent) : ref.number();
    Entry entry = versions.get(number);
    if (entry == null) {
      throw RegistryException.versionNotFound(ref.number());
    }
    if (!permanent) {
      if (entry.deleted()) {
        throw RegistryException.versionSoftDeleted(subject, number);
      }
      versions.put(number, new Entry(entry.id(), true));
    } else {
      if (!entry.deleted()) {
        throw RegistryException.versionNotSoftDeleted(subject, number);
      }
      versions.remove(number);
      if (versions.isEmpty()) {
        subjects.remove(subject);
      }
    }
    return number;
  }

  private static int latestToDelete(NavigableMap<Integer, Entry> versions, boolean permanent) {
    if (!permanent) {
      for (Map.Entry<Integer, Entry> version : versions.descendingMap().entrySet()) {
        if (!version.getValue().deleted()) {
          return version.getKey();
        }
      }
    }
    return versions.lastKey();
  }

  /** The subject's versions visible to a request, never empty; 40401 when there are none. */
  private NavigableMap<Integer, Entry> visible(String subject, boolean includeDeleted) {
    NavigableMap<Integer, Entry> visible = new TreeMap<>();
    subjects
        .getOrDefault(subject, new TreeMap<>())
        .forEach(
            (version, entry) -> {
              if (includeDeleted || !entry.deleted()) {
                visible.put(version, entry);
              }
            });
    if (visible.isEmpty()) {
      throw RegistryException.subjectNotFound(subject);
    }
    return visible;
  }

  private SchemaVersion view(String subject, int version, int id) {
    return new SchemaVersion(subject, version, id, schemaById.get(id).canonical());
  }
}

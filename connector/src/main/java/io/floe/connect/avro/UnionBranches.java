/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Avro unions as Connect sees them: {@code [null, X]} in either order is an optional X; a union
 * with more non-null branches is a STRUCT named {@link AvroParameters#UNION} with one optional
 * field per non-null branch, named as {@link AvroParameters#UNION} describes.
 */
final class UnionBranches {
  private UnionBranches() {}

  /** The union's branches other than {@code null}, in order. */
  static List<Schema> nonNull(Schema union) {
    List<Schema> branches = new ArrayList<>();
    for (Schema branch : union.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        branches.add(branch);
      }
    }
    return branches;
  }

  /** Whether the union has a {@code null} branch. */
  static boolean hasNull(Schema union) {
    return union.getTypes().stream().anyMatch(b -> b.getType() == Schema.Type.NULL);
  }

  /** The field name of each branch, in order. */
  static List<String> names(List<Schema> branches) {
    Map<String, Integer> simpleNames = new HashMap<>();
    for (Schema branch : branches) {
      if (isNamed(branch)) {
        simpleNames.merge(branch.getName(), 1, Integer::sum);
      }
    }
    List<String> names = new ArrayList<>(branches.size());
    for (Schema branch : branches) {
      if (!isNamed(branch)) {
        names.add(branch.getType().getName());
      } else if (simpleNames.get(branch.getName()) == 1) {
        names.add(branch.getName());
      } else {
        names.add(branch.getFullName().replace('.', '_'));
      }
    }
    return names;
  }

  /** Whether a Connect schema is the STRUCT of a union, Floe's or Confluent's. */
  static boolean isUnionStruct(org.apache.kafka.connect.data.Schema schema) {
    return schema.type() == org.apache.kafka.connect.data.Schema.Type.STRUCT
        && (AvroParameters.UNION.equals(schema.name())
            || AvroParameters.CONFLUENT_UNION.equals(schema.name()));
  }

  private static boolean isNamed(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> true;
      default -> false;
    };
  }
}

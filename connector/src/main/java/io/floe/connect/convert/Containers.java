/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.convert;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * List and map columns. Elements, keys and values go through their own compiled converters; a null
 * element or value where the column requires one, and a null key, are errors. Keys keep their type
 * (never {@code toString()}); two keys that become equal by conversion are an error.
 */
final class Containers {
  private Containers() {}

  static ValueConverter list(
      ValueConverter element, boolean elementRequired, Site elementSite, Site self) {
    return value -> {
      if (!(value instanceof List<?> list)) {
        throw self.fail(value, "not a List");
      }
      List<Object> out = new ArrayList<>(list.size());
      for (Object item : list) {
        if (item == null) {
          if (elementRequired) {
            throw elementSite.fail(null, "the list's elements are required");
          }
          out.add(null);
        } else {
          out.add(element.convert(item));
        }
      }
      return out;
    };
  }

  static ValueConverter map(
      ValueConverter key,
      ValueConverter val,
      boolean valueRequired,
      Site keySite,
      Site valueSite,
      Site self) {
    return value -> {
      if (!(value instanceof Map<?, ?> map)) {
        throw self.fail(value, "not a Map");
      }
      Map<Object, Object> out = new LinkedHashMap<>(capacity(map.size()));
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        Object k = entry.getKey();
        if (k == null) {
          throw keySite.fail(null, "map keys cannot be null");
        }
        Object v = entry.getValue();
        Object converted;
        if (v == null) {
          if (valueRequired) {
            throw valueSite.fail(null, "the map's values are required");
          }
          converted = null;
        } else {
          converted = val.convert(v);
        }
        out.put(key.convert(k), converted);
      }
      if (out.size() != map.size()) {
        throw keySite.fail(
            map.keySet().iterator().next(), "two distinct keys are equal after conversion");
      }
      return out;
    };
  }

  private static int capacity(int size) {
    return size < 3 ? size + 1 : (int) (size / 0.75f) + 1;
  }
}

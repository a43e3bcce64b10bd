/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

/** A decoded control event with its header. */
public record Envelope(EventHeader header, ControlEvent event) {

  public Envelope {
    Require.present(header, "header");
    Require.present(event, "event");
    if (!header.is(event.type())) {
      throw new IllegalArgumentException(
          "header type code " + header.typeCode() + " does not match event type " + event.type());
    }
  }
}

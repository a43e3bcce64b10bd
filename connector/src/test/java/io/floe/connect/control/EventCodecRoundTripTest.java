/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventCodecRoundTripTest {
  private final EventCodec codec = new EventCodec();

  static Stream<Arguments> events() {
    return SampleEvents.all().stream().map(event -> Arguments.of(event.toString(), event));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("events")
  void everyEventDecodesToAnEqualEvent(String name, ControlEvent event) {
    byte[] bytes =
        codec.encode(SampleEvents.GROUP, SampleEvents.TASK, SampleEvents.CREATED_AT_MS, event);

    Envelope decoded = codec.decode(bytes);

    assertThat(decoded.event()).isEqualTo(event);
    assertThat(decoded.header())
        .isEqualTo(
            new EventHeader(
                event.type().code(),
                event.type() == EventType.DATA_WRITTEN ? 3 : 1,
                1,
                SampleEvents.GROUP,
                SampleEvents.TASK,
                SampleEvents.CREATED_AT_MS));
    assertThat(EventCodec.peekHeader(bytes)).isEqualTo(decoded.header());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("events")
  void encodingIsDeterministic(String name, ControlEvent event) {
    byte[] first = codec.encode("c", "c-0", 7L, event);
    byte[] second = new EventCodec().encode("c", "c-0", 7L, codec.decode(first).event());

    assertThat(second).isEqualTo(first);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("events")
  void headerNamesTheEventType(String name, ControlEvent event) {
    EventHeader header = EventCodec.peekHeader(codec.encode("c", "c-0", 7L, event));

    assertThat(header.type()).contains(event.type());
    assertThat(header.is(event.type())).isTrue();
  }
}

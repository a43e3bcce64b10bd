/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;

/** Free loopback ports, and waiting for a port to accept connections. */
public final class Ports {
  public static final String LOOPBACK = "127.0.0.1";

  private Ports() {}

  /** A port that was free on 127.0.0.1 a moment ago. */
  public static int free() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on " + LOOPBACK, e);
    }
  }

  /** True once something accepts TCP connections on 127.0.0.1:port. */
  public static boolean isOpen(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(LOOPBACK, port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Waits until the port accepts connections, or fails after {@code timeout}. */
  public static void awaitOpen(int port, Duration timeout, String what) {
    Instant deadline = Instant.now().plus(timeout);
    while (!isOpen(port)) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(what + " did not open port " + port + " in " + timeout);
      }
      sleep(Duration.ofMillis(100));
    }
  }

  public static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
  }
}

/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A response whose status, headers and body the client never sees: a servlet's answer, kept for the
 * caller to read ({@link #getStatus()}, {@link #body()}). Like a real response, it is committed
 * once a byte of its body is written, and its status no longer changes.
 */
final class CapturedResponse extends HttpServletResponseWrapper {
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();
  private int status = SC_OK;
  private PrintWriter writer;

  CapturedResponse(HttpServletResponse response) {
    super(response);
  }

  @Override
  public void setStatus(int sc) {
    if (!isCommitted()) {
      status = sc;
    }
  }

  @Override
  public int getStatus() {
    return status;
  }

  @Override
  public void sendError(int sc, String msg) {
    setStatus(sc);
  }

  @Override
  public void sendError(int sc) {
    setStatus(sc);
  }

  @Override
  public void setHeader(String name, String value) {}

  @Override
  public void addHeader(String name, String value) {}

  @Override
  public void setIntHeader(String name, int value) {}

  @Override
  public void setContentType(String type) {}

  @Override
  public void setContentLength(int len) {}

  @Override
  public void setContentLengthLong(long len) {}

  @Override
  public void setCharacterEncoding(String charset) {}

  @Override
  public void flushBuffer() {}

  @Override
  public boolean isCommitted() {
    // as a real response once its body is on its way: the status can no longer change
    return body.size() > 0;
  }

  @Override
  public void reset() {
    body.reset();
  }

  @Override
  public void resetBuffer() {
    body.reset();
  }

  @Override
  public ServletOutputStream getOutputStream() {
    return new ServletOutputStream() {
      @Override
      public void write(int b) {
        body.write(b);
      }

      @Override
      public void write(byte[] bytes, int off, int len) {
        body.write(bytes, off, len);
      }

      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setWriteListener(WriteListener listener) {}
    };
  }

  @Override
  public PrintWriter getWriter() {
    if (writer == null) {
      writer = new PrintWriter(new OutputStreamWriter(body, StandardCharsets.UTF_8), true);
    }
    return writer;
  }

  /** What the servlet wrote. */
  byte[] body() {
    if (writer != null) {
      writer.flush();
    }
    return body.toByteArray();
  }
}

/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made by the test, and the PKCS12 key stores and trust stores it issues,
 * written to a folder of the test: nothing is committed, every store has the same password. A
 * certificate names {@code 127.0.0.1} and {@code localhost}, so that clients verify the broker's
 * host name as they do by default.
 */
public final class TlsCertificates {
  private static final Duration VALIDITY = Duration.ofDays(30);
  private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

  private final Path dir;
  private final String password;
  private final X500Name name;
  private final KeyPair keys;
  private final X509Certificate certificate;

  private TlsCertificates(
      Path dir, String password, X500Name name, KeyPair keys, X509Certificate certificate) {
    this.dir = dir;
    this.password = password;
    this.name = name;
    this.keys = keys;
    this.certificate = certificate;
  }

  /** A new authority {@code CN=<commonName>}, valid from a day ago for 30 days. */
  public static TlsCertificates authority(Path dir, String commonName, String password) {
    try {
      Files.createDirectories(dir);
      X500Name name = new X500Name("CN=" + commonName);
      KeyPair keys = keyPair();
      Instant now = Instant.now();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              name,
              BigInteger.valueOf(SERIALS.incrementAndGet()),
              Date.from(now.minus(Duration.ofDays(1))),
              Date.from(now.plus(VALIDITY)),
              name,
              keys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      return new TlsCertificates(dir, password, name, keys, sign(builder, keys.getPrivate()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("Cannot make a certificate authority", e);
    }
  }

  /** The password of every store. */
  public String password() {
    return password;
  }

  /**
   * A key store {@code <commonName>.p12} holding a new key and its certificate {@code
   * CN=<commonName>}, valid from a day ago for 30 days, with this authority's certificate.
   */
  public Path keystore(String commonName) {
    Instant now = Instant.now();
    return keystore(commonName, commonName, now.minus(Duration.ofDays(1)), now.plus(VALIDITY));
  }

  /** A key store {@code <file>.p12} whose certificate is valid between the given times only. */
  public Path keystore(String file, String commonName, Instant notBefore, Instant notAfter) {
    try {
      KeyPair subject = keyPair();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              name,
              BigInteger.valueOf(SERIALS.incrementAndGet()),
              Date.from(notBefore),
              Date.from(notAfter),
              new X500Name("CN=" + commonName),
              subject.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(
              new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.dNSName, "localhost")
              }));
      X509Certificate issued = sign(builder, keys.getPrivate());
      KeyStore store = emptyStore();
      store.setKeyEntry(
          "key",
          subject.getPrivate(),
          password.toCharArray(),
          new Certificate[] {issued, certificate});
      return write(store, file + ".p12");
    } catch (CertIOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("Cannot issue a certificate for " + commonName, e);
    }
  }

  /** A trust store {@code <file>.p12} that trusts this authority. */
  public Path truststore(String file) {
    try {
      KeyStore store = emptyStore();
      store.setCertificateEntry("ca", certificate);
      return write(store, file + ".p12");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Cannot make a trust store", e);
    }
  }

  private static KeyPair keyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(256);
    return generator.generateKeyPair();
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuer)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer)));
  }

  private static KeyStore emptyStore() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return store;
  }

  private Path write(KeyStore store, String fileName) throws GeneralSecurityException {
    Path file = dir.resolve(fileName);
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password.toCharArray());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
    return file;
  }
}

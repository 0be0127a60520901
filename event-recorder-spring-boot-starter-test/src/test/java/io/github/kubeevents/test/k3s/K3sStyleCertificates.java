package io.github.kubeevents.test.k3s;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

/**
 * A client CA and a client certificate like the ones K3s makes for its admin kubeconfig: ECDSA P-256 keys, a CA
 * named {@code k3s-client-ca@<time>}, and a client certificate for {@code CN=system:admin, O=system:masters}
 * whose key is written in SEC1 form ({@code -----BEGIN EC PRIVATE KEY-----}, with the public key, as Go writes it),
 * followed in the certificate data by the CA, as in K3s's {@code client-certificate-data}.
 *
 * @param caPem the client CA certificate (for the API server's {@code --client-ca-file})
 * @param clientCertificateChainPem the client certificate, then the CA
 * @param clientKeyPem the client key, SEC1
 */
record K3sStyleCertificates(String caPem, String clientCertificateChainPem, String clientKeyPem) {

	static K3sStyleCertificates generate() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
			generator.initialize(new ECGenParameterSpec("secp256r1"));
			Instant now = Instant.now();
			Date notBefore = Date.from(now.minus(Duration.ofMinutes(5)));
			Date notAfter = Date.from(now.plus(Duration.ofDays(1)));

			KeyPair caKeys = generator.generateKeyPair();
			X500Name caName = new X500Name("CN=k3s-client-ca@" + now.getEpochSecond());
			X509CertificateHolder ca = new JcaX509v3CertificateBuilder(caName, BigInteger.ONE, notBefore, notAfter,
					caName, caKeys.getPublic())
				.addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
				.addExtension(Extension.keyUsage, true,
						new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature | KeyUsage.cRLSign))
				.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate()));

			KeyPair clientKeys = generator.generateKeyPair();
			X509CertificateHolder client = new JcaX509v3CertificateBuilder(caName, BigInteger.TWO, notBefore, notAfter,
					new X500Name("O=system:masters,CN=system:admin"), clientKeys.getPublic())
				.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
				.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth))
				.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate()));

			JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
			String caPem = pem(converter.getCertificate(ca));
			return new K3sStyleCertificates(caPem, pem(converter.getCertificate(client)) + caPem, sec1Pem(clientKeys));
		}
		catch (GeneralSecurityException | OperatorCreationException | IOException ex) {
			throw new IllegalStateException("could not generate the test certificates", ex);
		}
	}

	/**
	 * The key as Go's {@code x509.MarshalECPrivateKey} (which K3s uses) writes it: SEC1 {@code ECPrivateKey} with the
	 * curve and the public key. The JDK's own encoding leaves the optional public key out, and client-java cannot
	 * load such a key ({@code PEMKeyPair.getPublicKeyInfo()} is {@code null}).
	 */
	private static String sec1Pem(KeyPair keys) throws IOException {
		SubjectPublicKeyInfo publicKey = SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded());
		ECPrivateKey sec1 = new ECPrivateKey(256, ((java.security.interfaces.ECPrivateKey) keys.getPrivate()).getS(),
				publicKey.getPublicKeyData(), publicKey.getAlgorithm().getParameters());
		StringWriter text = new StringWriter();
		try (PemWriter writer = new PemWriter(text)) {
			writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
		}
		return text.toString();
	}

	private static String pem(Object object) {
		StringWriter text = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
			writer.writeObject(object);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return text.toString();
	}

}

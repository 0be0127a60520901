package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;

/**
 * The credentials a {@link LocalControlPlane} writes before kube-apiserver starts: a random static token for each
 * identity in the {@code --token-auth-file} ({@value LocalControlPlane#ADMIN_USER} in {@code system:masters},
 * {@value LocalControlPlane#RESTRICTED_USER} in no group), and an RSA service-account key pair in PEM (PKCS#8 private
 * key, X.509 SubjectPublicKeyInfo public key) for {@code --service-account-signing-key-file} and
 * {@code --service-account-key-file}. Immutable.
 */
final class ControlPlaneCredentials {

	private final String adminToken;

	private final String restrictedToken;

	private ControlPlaneCredentials(String adminToken, String restrictedToken) {
		this.adminToken = adminToken;
		this.restrictedToken = restrictedToken;
	}

	/**
	 * Makes new tokens and a new key pair and writes them.
	 * @param tokenFile the {@code --token-auth-file} to write
	 * @param saPublicKey the public key file to write
	 * @param saPrivateKey the private key file to write
	 * @return the tokens
	 * @throws IOException when a file cannot be written
	 */
	static ControlPlaneCredentials write(Path tokenFile, Path saPublicKey, Path saPrivateKey) throws IOException {
		ControlPlaneCredentials credentials = new ControlPlaneCredentials(randomToken(), randomToken());
		Files.writeString(tokenFile, credentials.adminToken + "," + LocalControlPlane.ADMIN_USER + ",uid-"
				+ LocalControlPlane.ADMIN_USER + ",\"system:masters\"\n" + credentials.restrictedToken + ","
				+ LocalControlPlane.RESTRICTED_USER + ",uid-" + LocalControlPlane.RESTRICTED_USER + "\n");
		writeServiceAccountKeys(saPublicKey, saPrivateKey);
		return credentials;
	}

	/**
	 * The static token of an identity.
	 * @param identity which one
	 * @return its token (48 hex digits)
	 */
	String token(Identity identity) {
		return (identity == Identity.ADMIN) ? this.adminToken : this.restrictedToken;
	}

	private static void writeServiceAccountKeys(Path saPublicKey, Path saPrivateKey) throws IOException {
		KeyPair pair;
		try {
			KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
			gen.initialize(2048);
			pair = gen.generateKeyPair();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
		Files.writeString(saPrivateKey, pem("PRIVATE KEY", pair.getPrivate().getEncoded())); // PKCS#8
		Files.writeString(saPublicKey, pem("PUBLIC KEY", pair.getPublic().getEncoded())); // X.509 SPKI
	}

	private static String pem(String type, byte[] der) {
		String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
		return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
	}

	private static String randomToken() {
		byte[] bytes = new byte[24];
		new SecureRandom().nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

}

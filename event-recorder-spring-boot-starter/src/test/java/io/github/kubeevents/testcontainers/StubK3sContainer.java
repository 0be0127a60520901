package io.github.kubeevents.testcontainers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@link K3sContainer} that needs no Docker: the host is {@code localhost}, starting and stopping do nothing, and
 * the kubeconfig is the one it was given (e.g. the fixture {@code k3s-kubeconfig.yaml}, shaped like K3s's own).
 */
class StubK3sContainer extends K3sContainer {

	static final String IMAGE = "rancher/k3s:v1.35.4-k3s1";

	private final String kubeconfig;

	private int starts;

	StubK3sContainer(String kubeconfig) {
		super(DockerImageName.parse(IMAGE));
		this.kubeconfig = kubeconfig;
	}

	/** The fixture kubeconfig: K3s's shape, server {@code https://localhost:32789}, client certificate. */
	static String fixtureKubeconfig() {
		try (InputStream in = StubK3sContainer.class.getResourceAsStream("/k3s-kubeconfig.yaml")) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Called by {@link K3sContainer}'s constructor (for {@code --tls-san}); the default asks Docker. */
	@Override
	public String getHost() {
		return "localhost";
	}

	@Override
	public void start() {
		this.starts++;
	}

	@Override
	public void stop() {
	}

	@Override
	public String getKubeConfigYaml() {
		return this.kubeconfig;
	}

	@Override
	public String getDockerImageName() {
		return IMAGE;
	}

	int starts() {
		return this.starts;
	}

}

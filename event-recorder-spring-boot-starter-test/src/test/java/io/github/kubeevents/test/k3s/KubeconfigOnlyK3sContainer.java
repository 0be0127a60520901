package io.github.kubeevents.test.k3s;

import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@link K3sContainer} without Docker: the host is {@code localhost}, starting and stopping do nothing, and
 * {@link #getKubeConfigYaml()} returns the kubeconfig it was given.
 */
class KubeconfigOnlyK3sContainer extends K3sContainer {

	static final String IMAGE = "rancher/k3s:v1.35.4-k3s1";

	private final String kubeconfig;

	KubeconfigOnlyK3sContainer(String kubeconfig) {
		super(DockerImageName.parse(IMAGE));
		this.kubeconfig = kubeconfig;
	}

	@Override
	public String getHost() {
		return "localhost";
	}

	@Override
	public void start() {
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

}

package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.github.kubeevents.testsupport.TestClusters;

/**
 * {@link KubernetesConfigDetector}s over fake machines (kubeconfigs, service accounts, environments), so that no
 * test depends on the machine's {@code ~/.kube/config} or environment.
 */
final class Machines {

	private Machines() {
	}

	/**
	 * A detector that finds nothing, whatever the machine has.
	 * @param dir a temporary directory
	 * @return the detector
	 */
	static KubernetesConfigDetector noCluster(Path dir) {
		return new KubernetesConfigDetector(Map.of(), dir.resolve("empty-home"), dir.resolve("no-service-account"));
	}

	/**
	 * A developer's machine: a home with {@code ~/.kube/config} pointing at {@code http://home.example:6443}, and
	 * {@code $KUBECONFIG} listing a second kubeconfig pointing at {@code http://env.example:6443}; a service
	 * account directory with credentials, but not running in Kubernetes.
	 * @param dir a temporary directory
	 * @return the detector
	 * @throws IOException when the files cannot be written
	 */
	static KubernetesConfigDetector developerMachine(Path dir) throws IOException {
		Path home = dir.resolve("home");
		TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home.example:6443");
		Path env = TestClusters.writeKubeconfig(dir.resolve("env/kubeconfig"), "http://env.example:6443");
		Path serviceAccount = TestClusters.writeServiceAccount(dir.resolve("sa"));
		return new KubernetesConfigDetector(Map.of("KUBECONFIG", env.toString()), home, serviceAccount);
	}

	/**
	 * A pod: {@code $KUBERNETES_SERVICE_HOST}/{@code PORT} set and the service account's token and CA present,
	 * and also a kubeconfig in the home directory and {@code $KUBECONFIG} (which a pod normally has not).
	 * @param dir a temporary directory
	 * @param withKubeconfigs whether to add the kubeconfigs
	 * @return the detector
	 * @throws IOException when the files cannot be written
	 */
	static KubernetesConfigDetector inPod(Path dir, boolean withKubeconfigs) throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(dir.resolve("sa"));
		Map<String, String> env = new HashMap<>(TestClusters.IN_CLUSTER_ENV);
		Path home = dir.resolve("home");
		if (withKubeconfigs) {
			TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home.example:6443");
			Path kubeconfig = TestClusters.writeKubeconfig(dir.resolve("env/kubeconfig"), "http://env.example:6443");
			env.put("KUBECONFIG", kubeconfig.toString());
		}
		return new KubernetesConfigDetector(env, home, serviceAccount);
	}

}

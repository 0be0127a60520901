package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The admission plugins a {@link LocalControlPlane} enables on top of kube-apiserver's defaults, with their
 * configurations: {@code --enable-admission-plugins} and, when a plugin has a configuration, an
 * {@code apiserver.config.k8s.io/v1} {@code AdmissionConfiguration} file in the control plane's directory
 * ({@code admission-configuration.yaml}, deleted with it) given as {@code --admission-control-config-file}, each
 * plugin's configuration embedded. Stateless.
 */
final class AdmissionConfiguration {

	static final String FILE_NAME = "admission-configuration.yaml";

	private AdmissionConfiguration() {
	}

	/**
	 * Writes the file (when a plugin has a configuration) and returns the flags.
	 * @param plugins plugin name → its configuration as YAML ({@code ""} for none), in order
	 * @param directory where to write the file
	 * @return the kube-apiserver flags; empty when there are no plugins
	 * @throws IOException when the file cannot be written
	 */
	static List<String> flags(Map<String, String> plugins, Path directory) throws IOException {
		List<String> flags = new ArrayList<>();
		if (plugins.isEmpty()) {
			return flags;
		}
		flags.add("--enable-admission-plugins=" + String.join(",", plugins.keySet()));
		StringBuilder yaml = new StringBuilder("apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\n"
				+ "plugins:\n");
		boolean configured = false;
		for (Map.Entry<String, String> plugin : plugins.entrySet()) {
			if (plugin.getValue().isBlank()) {
				continue;
			}
			configured = true;
			yaml.append("- name: ").append(plugin.getKey()).append("\n  configuration:\n");
			for (String line : plugin.getValue().strip().split("\n")) {
				yaml.append("    ").append(line).append('\n');
			}
		}
		if (configured) {
			Path file = directory.resolve(FILE_NAME);
			Files.writeString(file, yaml);
			flags.add("--admission-control-config-file=" + file);
		}
		return flags;
	}

}

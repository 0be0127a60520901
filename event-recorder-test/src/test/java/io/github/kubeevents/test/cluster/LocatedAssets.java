package io.github.kubeevents.test.cluster;

import java.nio.file.Path;

/**
 * The main class of the JVM that {@link EnvtestAssetsJarIT} starts with the event-recorder-test jar, outside this
 * repository: prints what {@link EnvtestAssets#locate()} found, {@code directory=<dir or none>} then
 * {@code reason=<reason>}.
 */
public final class LocatedAssets {

	private LocatedAssets() {
	}

	/**
	 * Prints the lookup.
	 * @param args unused
	 */
	public static void main(String[] args) {
		EnvtestAssets.Result result = EnvtestAssets.locate();
		System.out.println("directory=" + result.directory().map(Path::toString).orElse("none"));
		System.out.println("reason=" + result.reason());
	}

}

package io.github.kubeevents.test.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Whether anything on this machine could lead Testcontainers to a Docker engine, read without asking Testcontainers
 * (which logs several ERROR lines when it finds none): an environment variable it reads ({@code DOCKER_HOST},
 * {@code TESTCONTAINERS_*}), its configuration file ({@code ~/.testcontainers.properties}), a Docker CLI
 * configuration ({@code ~/.docker}, which may name a context), a socket where its strategies look (the Unix socket,
 * rootless, Docker Desktop, Rancher Desktop, Colima, Podman), or Windows (named pipes). Only when there is none is
 * Docker certainly absent; otherwise Testcontainers decides. Immutable and thread-safe.
 */
final class DockerHints {

	private final Map<String, String> env;

	private final Path home;

	private final String osName;

	private final Predicate<Path> exists;

	DockerHints(Map<String, String> env, Path home, String osName, Predicate<Path> exists) {
		this.env = Map.copyOf(env);
		this.home = home;
		this.osName = osName;
		this.exists = exists;
	}

	/** The hints of this machine. */
	static DockerHints machine() {
		return new DockerHints(System.getenv(), Paths.get(System.getProperty("user.home")),
				System.getProperty("os.name", ""), Files::exists);
	}

	/**
	 * The first thing that may lead to a Docker engine.
	 * @return e.g. {@code "DOCKER_HOST"} or {@code "/var/run/docker.sock"}, or {@code null} when there is none
	 */
	String first() {
		if (this.osName.toLowerCase(Locale.ROOT).startsWith("windows")) {
			return "Windows (named pipe)";
		}
		for (String name : this.env.keySet()) {
			if (name.equals("DOCKER_HOST") || name.equals("DOCKER_CONTEXT") || name.startsWith("TESTCONTAINERS_")) {
				return name;
			}
		}
		for (Path path : candidates()) {
			if (this.exists.test(path)) {
				return path.toString();
			}
		}
		return null;
	}

	/** Where the socket strategies and configuration files are looked for. */
	List<Path> candidates() {
		List<Path> paths = new ArrayList<>();
		paths.add(this.home.resolve(".testcontainers.properties"));
		paths.add(this.home.resolve(".docker"));
		paths.add(Paths.get("/var/run/docker.sock"));
		paths.add(Paths.get("/run/docker.sock"));
		String runtimeDir = this.env.get("XDG_RUNTIME_DIR");
		if (runtimeDir != null && !runtimeDir.isEmpty()) {
			paths.add(Paths.get(runtimeDir, "docker.sock"));
			paths.add(Paths.get(runtimeDir, "podman", "podman.sock"));
		}
		paths.add(this.home.resolve(".rd/docker.sock"));
		paths.add(this.home.resolve(".colima/default/docker.sock"));
		paths.add(this.home.resolve(".colima/docker.sock"));
		return paths;
	}

}

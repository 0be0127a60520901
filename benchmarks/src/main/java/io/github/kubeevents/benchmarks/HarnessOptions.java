package io.github.kubeevents.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The {@code --name value} options of the end-to-end harnesses, and the machine's load for their output. */
final class HarnessOptions {

	private final Map<String, String> values = new HashMap<>();

	HarnessOptions(String[] args) {
		for (int i = 0; i < args.length; i += 2) {
			if (!args[i].startsWith("--") || i + 1 == args.length) {
				throw new IllegalArgumentException("expected --name value, got " + args[i]);
			}
			this.values.put(args[i].substring(2), args[i + 1]);
		}
	}

	String get(String name, String fallback) {
		return this.values.getOrDefault(name, fallback);
	}

	int getInt(String name, int fallback) {
		return Integer.parseInt(get(name, String.valueOf(fallback)));
	}

	boolean has(String name) {
		return this.values.containsKey(name);
	}

	/** The one-minute load average, or {@code ?} where {@code /proc/loadavg} does not exist. */
	static String load() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (IOException ex) {
			return "?";
		}
	}

}

package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;

/**
 * The namespace the application runs in, whose RBAC the recorder checks at startup
 * ({@code EventBroadcaster.Builder.accessCheckNamespace}): the {@code POD_NAMESPACE} environment variable or
 * property (the downward API's usual name), else the {@code namespace} file of the in-cluster service account;
 * {@code null} outside a Pod (the recorder then checks {@code default}). Stateless.
 */
final class OwnNamespace {

	private OwnNamespace() {
	}

	static @Nullable String detect(Environment environment, Path serviceAccountDir) {
		String fromEnvironment = environment.getProperty("POD_NAMESPACE");
		if (fromEnvironment != null && !fromEnvironment.isBlank()) {
			return fromEnvironment.strip();
		}
		Path file = serviceAccountDir.resolve("namespace");
		try {
			if (Files.isRegularFile(file)) {
				String namespace = Files.readString(file).strip();
				return namespace.isEmpty() ? null : namespace;
			}
		}
		catch (IOException | RuntimeException ex) {
			// unreadable: the recorder checks its default namespace
		}
		return null;
	}

}

package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** File helpers. Stateless. */
final class Files2 {

	private Files2() {
	}

	/**
	 * Deletes a directory tree, best effort.
	 * @param root the tree (may be {@code null} or missing)
	 * @param keep files to keep (their directories stay too), or {@code null}
	 */
	static void deleteRecursively(Path root, Predicate<Path> keep) {
		// a few passes: a file that appears while the tree is walked (a process still flushing) is caught next time
		for (int pass = 0; pass < 5 && root != null && Files.exists(root); pass++) {
			deleteOnce(root, keep);
			if (keep != null) {
				return;
			}
		}
	}

	private static void deleteOnce(Path root, Predicate<Path> keep) {
		try (Stream<Path> walk = Files.walk(root)) {
			walk.sorted(Comparator.reverseOrder()).forEach((p) -> {
				try {
					if (keep != null && keep.test(p)) {
						return;
					}
					if (Files.isDirectory(p)) {
						try (Stream<Path> children = Files.list(p)) {
							if (children.findAny().isPresent()) {
								return; // still holds kept files
							}
						}
					}
					Files.deleteIfExists(p);
				}
				catch (IOException ex) {
					// best effort
				}
			});
		}
		catch (IOException | UncheckedIOException ex) {
			// best effort
		}
	}

}

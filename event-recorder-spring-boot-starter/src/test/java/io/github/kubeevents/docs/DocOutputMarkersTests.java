package io.github.kubeevents.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Stream;

import io.github.kubeevents.DocOutputs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code <!-- output: id (produced by TestClass) -->} marker of {@code README.md} and {@code docs/*.md} names
 * a test class of this repository that checks that id ({@link DocOutputs#check}), so that no marked block is left
 * unchecked by a renamed or removed test.
 */
class DocOutputMarkersTests {

	@Test
	void everyMarkedBlockIsCheckedByTheTestItNames() throws IOException {
		List<Path> files = markdownFiles();
		List<String> tests = testSources();
		List<String> unchecked = new ArrayList<>();
		int markers = 0;
		for (Path file : files) {
			for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
				Matcher marker = DocOutputs.MARKER.matcher(line);
				if (marker.matches()) {
					markers++;
					String id = marker.group(1);
					String source = tests.stream()
						.filter((text) -> text.contains("class " + marker.group(2) + " "))
						.findFirst()
						.orElse("");
					if (!source.contains("DocOutputs.check(\"" + DocOutputs.ROOT.relativize(file) + "\", \"" + id + "\"")) {
						unchecked.add(DocOutputs.ROOT.relativize(file) + ": " + id + " (" + marker.group(2) + ")");
					}
				}
			}
		}
		assertThat(markers).as("markers found").isGreaterThanOrEqualTo(14);
		assertThat(unchecked).as("markers whose test does not check them").isEmpty();
	}

	/**
	 * A fenced block that shows output (no language, {@code text} or {@code json}) is marked, so that a typed one
	 * cannot be added unnoticed; a drawing says so with {@code <!-- illustration: why -->}.
	 */
	@Test
	void everyOutputBlockIsMarked() throws IOException {
		List<String> unmarked = new ArrayList<>();
		for (Path file : markdownFiles()) {
			List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
			boolean inBlock = false;
			for (int i = 0; i < lines.size(); i++) {
				String line = lines.get(i);
				if (!line.startsWith("```")) {
					continue;
				}
				if (!inBlock) {
					String language = line.substring(3).trim();
					String before = (i > 0) ? lines.get(i - 1) : "";
					if (List.of("", "text", "json").contains(language) && !DocOutputs.MARKER.matcher(before).matches()
							&& !before.startsWith("<!-- illustration: ")) {
						unmarked.add(DocOutputs.ROOT.relativize(file) + ":" + (i + 1));
					}
				}
				inBlock = !inBlock;
			}
		}
		assertThat(unmarked).as("output blocks without a marker").isEmpty();
	}

	private static List<Path> markdownFiles() throws IOException {
		List<Path> files = new ArrayList<>(List.of(DocOutputs.ROOT.resolve("README.md")));
		try (Stream<Path> docs = Files.list(DocOutputs.ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(files::add);
		}
		return files;
	}

	private static List<String> testSources() throws IOException {
		List<String> sources = new ArrayList<>();
		try (Stream<Path> paths = Files.walk(DocOutputs.ROOT, 12)) {
			for (Path path : paths.filter((p) -> p.toString().contains("/src/test/java/") && p.toString().endsWith(".java"))
				.toList()) {
				sources.add(Files.readString(path, StandardCharsets.UTF_8));
			}
		}
		return sources;
	}

}

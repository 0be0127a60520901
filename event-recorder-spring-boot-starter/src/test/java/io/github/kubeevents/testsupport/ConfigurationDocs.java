package io.github.kubeevents.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The property names documented for users in the repository's {@code docs/configuration.md}: the first cell of every
 * row of its property tables (header {@code | property | default | meaning |}), when that cell is exactly one name
 * in backticks. A cell with more text, such as {@code `kubeevents.test.cluster` (system property)}, names something
 * that is not a configuration property; other tables (e.g. {@code | was | now |} or {@code | property | builder |})
 * are not property tables.
 */
public final class ConfigurationDocs {

	/** {@code docs/configuration.md}, from a module directory (the tests' working directory). */
	public static final Path PATH = Path.of("..", "docs", "configuration.md");

	private static final Pattern HEADER = Pattern.compile("^\\|\\s*property\\s*\\|\\s*default\\s*\\|.*");

	private static final Pattern ROW = Pattern.compile("^\\|\\s*`([^`\\s]+)`\\s*\\|.*");

	private ConfigurationDocs() {
	}

	/**
	 * Reads {@link #PATH}.
	 * @return the documented names
	 * @throws IOException when it cannot be read
	 */
	public static Set<String> read() throws IOException {
		return propertyNames(Files.readString(PATH, StandardCharsets.UTF_8));
	}

	/**
	 * The property names of a Markdown document.
	 * @param markdown the document
	 * @return the names, sorted
	 */
	public static Set<String> propertyNames(String markdown) {
		Set<String> names = new TreeSet<>();
		boolean inPropertyTable = false;
		for (String line : markdown.split("\\R")) {
			String trimmed = line.strip();
			if (!trimmed.startsWith("|")) {
				inPropertyTable = false;
			}
			else if (HEADER.matcher(trimmed).matches()) {
				inPropertyTable = true;
			}
			else if (inPropertyTable) {
				Matcher row = ROW.matcher(trimmed);
				if (row.matches()) {
					names.add(row.group(1));
				}
			}
		}
		return names;
	}

}

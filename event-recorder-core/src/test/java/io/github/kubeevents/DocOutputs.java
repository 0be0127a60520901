package io.github.kubeevents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.opentest4j.AssertionFailedError;

/**
 * The example outputs of {@code README.md} and {@code docs/*.md}, produced by tests. Each output block is a fenced
 * block whose preceding line is a marker {@code <!-- output: <id> (produced by <TestClass>) -->}; the test named
 * there runs the real thing and passes what it printed or answered, with volatile parts (times, ports, host names)
 * pinned or replaced, to {@link #check}. A block may move within its file: it is found by its id.
 * <p>
 * A block that differs from the output fails the test with both texts, unless the system property
 * {@code kubeevents.docs.update=true} is set: then the block is rewritten to the output (run the producing tests
 * with it, then review {@code git diff}).
 */
public final class DocOutputs {

	/** The system property that rewrites differing blocks instead of failing. */
	public static final String UPDATE = "kubeevents.docs.update";

	/** The repository's root, from a module directory (the tests' working directory). */
	public static final Path ROOT = Path.of("..");

	/** A marker line: {@code <!-- output: id (produced by TestClass) -->}. */
	public static final Pattern MARKER = Pattern
		.compile("^<!-- output: ([a-z0-9-]+) \\(produced by ([A-Za-z0-9_.]+)\\) -->$");

	private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

	private DocOutputs() {
	}

	/**
	 * Compares the block {@code id} of {@code file} with {@code produced}; rewrites it under {@link #UPDATE}.
	 * @param file a Markdown file, relative to the repository's root ({@code README.md}, {@code docs/testing.md})
	 * @param id the block's id
	 * @param produced what the test produced, without the fences
	 */
	public static void check(String file, String id, String produced) {
		Path path = ROOT.resolve(file);
		List<String> lines = read(path);
		int marker = -1;
		for (int i = 0; i < lines.size(); i++) {
			Matcher matcher = MARKER.matcher(lines.get(i));
			if (matcher.matches() && matcher.group(1).equals(id)) {
				if (marker >= 0) {
					throw new AssertionError(file + ": two blocks marked '" + id + "' (lines " + (marker + 1) + " and "
							+ (i + 1) + ")");
				}
				marker = i;
			}
		}
		if (marker < 0) {
			throw new AssertionError(file + ": no block marked '<!-- output: " + id + " (produced by ...) -->'");
		}
		int open = marker + 1;
		if (open >= lines.size() || !lines.get(open).startsWith("```")) {
			throw new AssertionError(file + ":" + (marker + 1) + ": the marker of '" + id + "' is not followed by a fence");
		}
		int close = open + 1;
		while (close < lines.size() && !lines.get(close).equals("```")) {
			close++;
		}
		if (close == lines.size()) {
			throw new AssertionError(file + ":" + (open + 1) + ": the block '" + id + "' is not closed");
		}
		String documented = String.join("\n", lines.subList(open + 1, close));
		String expected = produced.strip();
		if (documented.equals(expected)) {
			return;
		}
		if (Boolean.getBoolean(UPDATE)) {
			List<String> updated = new ArrayList<>(lines.subList(0, open + 1));
			updated.addAll(List.of(expected.split("\n", -1)));
			updated.addAll(lines.subList(close, lines.size()));
			write(path, updated);
			return;
		}
		String[] a = documented.split("\n", -1);
		String[] b = expected.split("\n", -1);
		int same = 0;
		while (same < a.length && same < b.length && a[same].equals(b[same])) {
			same++;
		}
		StringBuilder diff = new StringBuilder();
		for (int i = same; i < a.length; i++) {
			diff.append("\n- ").append(a[i]);
		}
		for (int i = same; i < b.length; i++) {
			diff.append("\n+ ").append(b[i]);
		}
		throw new AssertionFailedError(file + ":" + (open + 2) + ": the block '" + id + "' differs from what the test"
				+ " produced from its line " + (same + 1) + " on (-D" + UPDATE + "=true rewrites it); - documented,"
				+ " + produced:" + diff, expected, documented);
	}

	/**
	 * A JSON document as {@code jq} prints it: two spaces per level, {@code "key": value}, {@code []} when empty.
	 * @param json a JSON document
	 * @return it, pretty-printed
	 */
	public static String prettyJson(String json) {
		return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(JsonParser.parseString(json));
	}

	/**
	 * A JSON document on few lines: {@code { "key": value, ... }}. A value that fits on the line goes there whole;
	 * one that does not starts a new line (indented two spaces per level), and one that does not fit there either has
	 * its own members laid out the same way.
	 * @param json a JSON document
	 * @param width the longest line wanted (a longer one holds a value that fits no line)
	 * @return it, compact
	 */
	public static String compactJson(String json, int width) {
		StringBuilder out = new StringBuilder();
		fill(JsonParser.parseString(json), 0, "", width, out);
		return out.toString();
	}

	private static void fill(JsonElement element, int indent, String tail, int width, StringBuilder out) {
		String inline = inline(element);
		boolean container = (element instanceof JsonObject object && !object.isEmpty())
				|| (element instanceof JsonArray array && !array.isEmpty());
		if (!container || column(out) + inline.length() + tail.length() <= width) {
			out.append(inline);
			return;
		}
		boolean isObject = element instanceof JsonObject;
		List<String> keys = new ArrayList<>();
		List<JsonElement> values = new ArrayList<>();
		if (element instanceof JsonObject object) {
			object.entrySet().forEach((entry) -> {
				keys.add(GSON.toJson(entry.getKey()) + ": ");
				values.add(entry.getValue());
			});
		}
		else {
			element.getAsJsonArray().forEach((value) -> {
				keys.add("");
				values.add(value);
			});
		}
		String close = isObject ? " }" : " ]";
		out.append(isObject ? "{ " : "[ ");
		for (int i = 0; i < values.size(); i++) {
			String after = (i < values.size() - 1) ? "," : close + tail;
			String member = keys.get(i) + inline(values.get(i)) + after;
			if (i > 0) {
				if (column(out) + 1 + member.length() > width) {
					out.append('\n').append("  ".repeat(indent + 1));
				}
				else {
					out.append(' ');
				}
			}
			out.append(keys.get(i));
			fill(values.get(i), indent + 1, after, width, out);
			if (i < values.size() - 1) {
				out.append(',');
			}
		}
		out.append(close);
	}

	private static int column(StringBuilder out) {
		return out.length() - (out.lastIndexOf("\n") + 1);
	}

	private static String inline(JsonElement element) {
		if (element instanceof JsonObject object && !object.isEmpty()) {
			List<String> members = new ArrayList<>();
			object.entrySet().forEach((entry) -> members.add(GSON.toJson(entry.getKey()) + ": " + inline(entry.getValue())));
			return "{ " + String.join(", ", members) + " }";
		}
		if (element instanceof JsonArray array && !array.isEmpty()) {
			List<String> members = new ArrayList<>();
			array.forEach((value) -> members.add(inline(value)));
			return "[ " + String.join(", ", members) + " ]";
		}
		return GSON.toJson(element);
	}

	private static List<String> read(Path path) {
		try {
			return List.of(Files.readString(path, StandardCharsets.UTF_8).split("\n", -1));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void write(Path path, List<String> lines) {
		try {
			Files.writeString(path, String.join("\n", lines), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

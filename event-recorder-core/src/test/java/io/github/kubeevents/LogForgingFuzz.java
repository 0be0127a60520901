package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IllegalFormatConversionException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * Drives every logging call that attaches caller text as SLF4J key-values (the event line of
 * {@link EventLoggingHandler}, and {@link EventCounters}' format failure, drop logged at once and drop summary) with
 * fuzzed reasons, messages, names, namespaces, kinds, apiVersions, fieldPaths, actions and patterns, through
 * loggers of the caller's choice, one record per step, and keeps what the backend printed for each record. The
 * tests of each backend check the output with {@link #problems(List, Pattern)}: a real backend, not a capture of
 * the logging event, decides what reaches a log file.
 *
 * <p>Shared with the starter's tests through core's test-jar. Not thread-safe: one run at a time.
 */
public final class LogForgingFuzz {

	/** Line breaks, NUL, BEL, ANSI and OSC sequences, DEL, C1 controls, U+2028/U+2029, bidi controls, quotes, braces. */
	public static final String NASTY = "\n\r\t\u0000\u0007\u001b[31m\u001b]0;pwned\u0007\u007f\u0085\u009b\u2028\u2029"
			+ "\u202e\u2066\"\\%{}";

	/** Every character a line reader or a terminal may take for the end of a line. */
	private static final Pattern LINE_BREAK = Pattern.compile("\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]");

	private final Random random;

	private LogForgingFuzz(long seed) {
		this.random = new Random(seed);
	}

	/**
	 * What one logging call printed.
	 * @param call what was logged ({@code event}, {@code formatFailed}, {@code dropAndLog} or {@code summary})
	 * @param keyValues the key-values the record must carry, as the message escapes them ({@code null}: absent
	 * or null)
	 * @param output everything the backend printed for the record
	 */
	public record Printed(String call, Map<String, @Nullable String> keyValues, String output) {
	}

	/**
	 * Logs {@code records} records, one per step, through {@code events} (the event log line) and
	 * {@code counters} (drops), both enabled at INFO or finer, and after each step takes what was printed.
	 * @param events the logger of the event line
	 * @param counters the logger of the drop lines
	 * @param printed what the backend printed since it was last asked (each call empties it)
	 * @param records how many records to log
	 * @param seed the seed of the fuzzed text
	 * @return one entry per record, in order
	 */
	public static List<Printed> run(Logger events, Logger counters, Supplier<String> printed, int records, long seed) {
		return new LogForgingFuzz(seed).run(new EventLoggingHandler(events),
				new EventCounters(TickingClock.fixed(Instant.parse("2026-12-06T03:00:00Z")), Duration.ofSeconds(10),
						counters),
				printed, records);
	}

	private List<Printed> run(EventLoggingHandler handler, EventCounters counters, Supplier<String> printed,
			int records) {
		printed.get();
		List<Printed> result = new ArrayList<>(records);
		for (int i = 0; i < records; i++) {
			RecordedEvent event = event(i);
			Map<String, @Nullable String> keyValues = new LinkedHashMap<>();
			String call;
			switch (i % 4) {
				case 0 -> {
					call = "event";
					handler.onEvent(event);
					InvolvedObject ref = event.regarding();
					keyValues.put("object", LogText.oneLine(ref.displayName()));
					keyValues.put("kind", escaped(ref.kind()));
					keyValues.put("apiVersion", escaped(ref.apiVersion()));
					keyValues.put("type", event.type().value());
					keyValues.put("reason", LogText.oneLine(event.reason()));
					keyValues.put("fieldPath", escaped(ref.fieldPath()));
					keyValues.put("action", escaped(event.action()));
					keyValues.put("note", LogText.oneLine(event.message()));
				}
				case 1 -> {
					call = "formatFailed";
					// a new pattern each time: a pattern is logged once
					counters.formatFailed(event, i + " %d " + text(20),
							new IllegalFormatConversionException('d', String.class));
					keyValues.put("object", LogText.oneLine(event.regarding().displayName()));
				}
				case 2 -> {
					call = "dropAndLog";
					if (this.random.nextBoolean()) {
						counters.dropAndLog(DropReason.REJECTED_BY_SERVER, event,
								"events \"" + text(10) + "\" is invalid: " + text(20), false);
						keyValues.put("dropReason", DropReason.REJECTED_BY_SERVER.tag());
					}
					else {
						counters.dropAndLog(DropReason.INVALID_INPUT, null, "invalid reason " + text(20), false);
						keyValues.put("dropReason", DropReason.INVALID_INPUT.tag());
					}
				}
				default -> {
					call = "summary";
					counters.drop(DropReason.SPAM_FILTERED, event);
					counters.flush(true);
					keyValues.put("dropReason", DropReason.SPAM_FILTERED.tag());
					keyValues.put("dropped", "1");
				}
			}
			result.add(new Printed(call, Collections.unmodifiableMap(keyValues), printed.get()));
		}
		return result;
	}

	private RecordedEvent event(int i) {
		InvolvedObject object = new InvolvedObject(maybe(text(8)), maybe(text(6)), maybe(text(8)), text(12), null,
				null, maybe(text(10)));
		return new RecordedEvent(object, null, (i % 3 == 0) ? EventType.WARNING : EventType.NORMAL, text(10),
				maybe(text(6)), text(40), Map.of(), new EventSource("fuzz", "host"), TestEvents.TIME);
	}

	private @Nullable String maybe(String text) {
		return (this.random.nextInt(4) == 0) ? null : text;
	}

	private String text(int max) {
		StringBuilder out = new StringBuilder();
		int length = 1 + this.random.nextInt(max);
		for (int i = 0; i < length; i++) {
			int roll = this.random.nextInt(12);
			if (roll < 4) {
				out.append(NASTY.charAt(this.random.nextInt(NASTY.length())));
			}
			else if (roll == 4) {
				// SLF4J's placeholder: a backend that merges key-values into the message pattern must not fill it
				out.append("{}");
			}
			else {
				out.append((char) ('a' + this.random.nextInt(26)));
			}
		}
		return out.toString();
	}

	private static @Nullable String escaped(@Nullable String text) {
		return (text != null) ? LogText.oneLine(text) : null;
	}

	/**
	 * What is wrong with the records printed: each must be exactly one line (one line separator, at its end, and no
	 * other character that a reader takes for a line break), start as the backend starts a record, and hold no
	 * control character (C0, DEL, C1), no U+2028/U+2029 and no bidi control. Ends with a summary line with the
	 * counts (records, records of more than one line, lines that a record did not start).
	 * @param printed what a {@link #run} printed
	 * @param recordStart how the backend starts a record (matched at the start of every line)
	 * @return the problems of the first five wrong records, then the summary; empty when there is none
	 */
	public static List<String> problems(List<Printed> printed, Pattern recordStart) {
		List<String> problems = new ArrayList<>();
		int wrongRecords = 0;
		int multiLine = 0;
		int forgedLines = 0;
		int unsafe = 0;
		for (Printed record : printed) {
			String output = record.output();
			List<String> wrong = new ArrayList<>();
			String body = output;
			if (output.endsWith(System.lineSeparator())) {
				body = output.substring(0, output.length() - System.lineSeparator().length());
			}
			else {
				wrong.add("does not end with a line separator");
			}
			String[] lines = LINE_BREAK.split(body, -1);
			if (lines.length != 1) {
				multiLine++;
				forgedLines += lines.length - 1;
				wrong.add(lines.length + " lines");
			}
			for (String line : lines) {
				if (!recordStart.matcher(line).lookingAt()) {
					wrong.add("a line does not start like a record: " + visible(line));
					break;
				}
			}
			if (body.chars().anyMatch(LogForgingFuzz::unsafe)) {
				unsafe++;
				wrong.add("raw control characters");
			}
			if (!wrong.isEmpty() && wrongRecords++ < 5) {
				problems.add(record.call() + ": " + wrong + " in " + visible(output));
			}
		}
		if (wrongRecords > 0) {
			problems.add("records " + printed.size() + ", wrong " + wrongRecords + ", of more than one line "
					+ multiLine + ", lines a record did not start " + forgedLines + ", with raw control characters "
					+ unsafe);
		}
		return problems;
	}

	/**
	 * Whether a character must not reach a log line raw.
	 * @param c the character
	 * @return whether it is a control character, a line or paragraph separator or a bidi control
	 */
	public static boolean unsafe(int c) {
		return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e)
				|| (c >= 0x2066 && c <= 0x2069);
	}

	/** The text with its unsafe characters shown as {@code <U+XXXX>}, for a readable failure. */
	private static String visible(String text) {
		StringBuilder out = new StringBuilder(text.length() + 32);
		text.chars().forEach((c) -> {
			if (unsafe(c)) {
				out.append(String.format("<U+%04X>", c));
			}
			else {
				out.append((char) c);
			}
		});
		return out.toString();
	}

}

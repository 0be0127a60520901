package io.github.kubeevents;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Formattable;
import java.util.Formatter;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.MissingFormatArgumentException;
import java.util.Random;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The caller's path ({@link EventSpec}): validation and resolution of a call, the one formatting rule (format only
 * when arguments are given; a pattern that fails is kept, marked, with its arguments), and the {@code %s} fast path
 * of formatting, which must give exactly what {@code String.format(Locale.ROOT, ...)} gives, or fail where it
 * fails.
 */
class EventSpecTests {

	private static final InvolvedObject POD = InvolvedObject.of("Pod", "v1", "ns", "web-0");

	private static final String[] PIECES = { "", "a", "Error ", " on ", "é", "100", "%s", "%s", "%s", "%%", "%%s",
			"%n", "%d", "%5s", "%-4s", "%S", "%b", "%x", "%1$s", "%2$s", "%.2s", "%", "%q", "\"", "\\", "{}", "$" };

	/** A {@link Formattable} argument: {@code %s} must call formatTo, not toString. */
	private static final class Shouting implements Formattable {

		@Override
		public void formatTo(Formatter formatter, int flags, int width, int precision) {
			formatter.format("LOUD(%d,%d)", width, precision);
		}

		@Override
		public String toString() {
			return "quiet";
		}

	}

	private static Object randomArg(Random random) {
		return switch (random.nextInt(9)) {
			case 0 -> null;
			case 1 -> random.nextInt(1000) - 500;
			case 2 -> "text-" + random.nextInt(100);
			case 3 -> new Shouting();
			case 4 -> 3.5;
			case 5 -> true;
			case 6 -> List.of("x", 1);
			case 7 -> 'c';
			default -> "";
		};
	}

	/** The expected outcome: the formatted text, or "!" plus the failure's class. */
	private static String expected(String pattern, Object[] args) {
		try {
			return String.format(Locale.ROOT, pattern, args);
		}
		catch (IllegalFormatException ex) {
			return "!";
		}
	}

	private static String actual(String pattern, Object[] args) {
		EventSpec.Formatted formatted = EventSpec.format(pattern, args);
		if (formatted.failure() == null) {
			return formatted.text();
		}
		assertThat(formatted.text()).startsWith(pattern + " %!(BADFORMAT ");
		assertThat(formatted.failure()).isInstanceOf(IllegalFormatException.class);
		return "!";
	}

	private static String format(String pattern, Object... args) {
		return EventSpec.format(pattern, args).text();
	}

	@Test
	void fastPathGivesExactlyWhatStringFormatGives() {
		Random random = new Random(1130);
		int formatted = 0;
		int failed = 0;
		for (int i = 0; i < 2000; i++) {
			StringBuilder pattern = new StringBuilder();
			int pieces = random.nextInt(6);
			for (int p = 0; p < pieces; p++) {
				pattern.append(PIECES[random.nextInt(PIECES.length)]);
			}
			Object[] args = new Object[1 + random.nextInt(3)];
			for (int a = 0; a < args.length; a++) {
				args[a] = randomArg(random);
			}
			String expected = expected(pattern.toString(), args);
			assertThat(actual(pattern.toString(), args)).as("format(\"%s\", %s)", pattern, Arrays.toString(args))
				.isEqualTo(expected);
			if (expected.equals("!")) {
				failed++;
			}
			else {
				formatted++;
			}
		}
		assertThat(formatted).as("formatted").isGreaterThan(500);
		assertThat(failed).as("failed").isGreaterThan(300);
	}

	@Test
	void simplePatternsOfOnlyPercentSAndPercentPercent() {
		Random random = new Random(7);
		for (int i = 0; i < 500; i++) {
			StringBuilder pattern = new StringBuilder();
			List<Object> args = new ArrayList<>();
			int pieces = 1 + random.nextInt(8);
			for (int p = 0; p < pieces; p++) {
				switch (random.nextInt(3)) {
					case 0 -> pattern.append("word").append(p);
					case 1 -> pattern.append("%%");
					default -> {
						pattern.append("%s");
						args.add(randomArg(random));
					}
				}
			}
			Object[] array = args.toArray();
			String expected = array.length > 0 ? String.format(Locale.ROOT, pattern.toString(), array)
					: pattern.toString();
			assertThat(EventSpec.format(pattern.toString(), array).text()).isEqualTo(expected);
		}
	}

	@Test
	void examples() {
		assertThat(format("Error creating: %s", "boom")).isEqualTo("Error creating: boom");
		assertThat(format("%s%%", 100)).isEqualTo("100%");
		assertThat(format("%s", (Object) null)).isEqualTo("null");
		assertThat(format("%s", new Shouting())).isEqualTo("LOUD(-1,-1)");
		assertThat(format("%5s|%-3s|", "ab", "c")).isEqualTo("   ab|c  |");
		assertThat(format("%d items", 3)).isEqualTo("3 items");
		assertThat(format("a%nb%s", "")).isEqualTo("a" + System.lineSeparator() + "b");
		assertThat(format("%,d", 1234567)).as("Locale.ROOT").isEqualTo("1,234,567");
		assertThat(format("%.1f", 1.25)).as("Locale.ROOT").isEqualTo("1.3");
	}

	@Test
	void extraArgumentsAreIgnored() {
		assertThat(format("%s", "a", "b", "c")).isEqualTo("a");
		assertThat(format("no verbs", "a")).isEqualTo("no verbs");
	}

	@Test
	void withoutArgumentsTheMessageIsVerbatimWhateverItHolds() {
		assertThat(EventSpec.format("Disk 100% full", null).text()).isEqualTo("Disk 100% full");
		assertThat(EventSpec.format("Disk 100% full", new Object[0])).isEqualTo(new EventSpec.Formatted("Disk 100% full", null));
		assertThat(EventSpec.format("100% %s %d %q", new Object[0]).text()).isEqualTo("100% %s %d %q");
		assertThat(EventSpec.format(null, null).text()).isEmpty();
		assertThat(EventSpec.format(null, new Object[] { "x" }).text()).isEmpty();
	}

	@Test
	void aPatternThatFailsToFormatIsKeptWithAMarkAndItsArguments() {
		EventSpec.Formatted missing = EventSpec.format("%s and %s", new Object[] { "a" });
		assertThat(missing.text()).isEqualTo(
				"%s and %s %!(BADFORMAT MissingFormatArgumentException: Format specifier '%s') %!(ARGS a)");
		assertThat(missing.failure()).isInstanceOf(MissingFormatArgumentException.class);
		EventSpec.Formatted conversion = EventSpec.format("Disk %d full", new Object[] { "disk-1", 3 });
		assertThat(conversion.text()).isEqualTo(
				"Disk %d full %!(BADFORMAT IllegalFormatConversionException: d != java.lang.String) %!(ARGS disk-1, 3)");
		EventSpec.Formatted percent = EventSpec.format("100% of %s", new Object[] { "disk" });
		assertThat(percent.text()).startsWith("100% of %s %!(BADFORMAT ").endsWith(" %!(ARGS disk)");
		assertThat(percent.failure()).isInstanceOf(IllegalFormatException.class);
	}

	@Test
	void anArgumentWhoseToStringThrowsIsNamedInsteadOfItsText() {
		Object broken = new Object() {
			@Override
			public String toString() {
				throw new IllegalStateException("no");
			}
		};
		EventSpec.Formatted formatted = EventSpec.format("value %s", new Object[] { broken, 2 });
		assertThat(formatted.failure()).isInstanceOf(IllegalStateException.class);
		assertThat(formatted.text()).isEqualTo("value %s %!(BADFORMAT IllegalStateException: no) %!(ARGS "
				+ broken.getClass().getName() + "(toString failed: IllegalStateException), 2)");
	}

	@Test
	void toRecordedEventValidatesAndKeepsEveryField() {
		InvolvedObject node = InvolvedObject.of("Node", "v1", null, "n");
		EventSpec spec = new EventSpec(POD, null, node, Map.of("k", "v"), EventType.WARNING, "Failed", "Deleting", "%s!",
				new Object[] { "boom" });
		Instant time = Instant.parse("2026-11-30T12:00:00Z");
		assertThat(spec.toRecordedEvent(TestEvents.SOURCE, time)).isEqualTo(new RecordedEvent(POD, node,
				EventType.WARNING, "Failed", "Deleting", "boom!", Map.of("k", "v"), TestEvents.SOURCE, time));
		assertThat(spec.formattedMessage()).isEqualTo("boom!");
	}

	@Test
	void theRegardingObjectIsReferencedByItsAdapterOrTheBuiltInReferences() {
		V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("web-0").namespace("ns").uid("u1").resourceVersion("7"));
		assertThat(EventSpec.of(pod, EventType.NORMAL, "R", "m").regardingReference())
			.isEqualTo(new InvolvedObject("Pod", "v1", "ns", "web-0", "u1", "7", null));
		V1ObjectReference reference = new V1ObjectReference().kind("Node").apiVersion("v1").name("n1");
		assertThat(EventSpec.of(reference, EventType.NORMAL, "R", "m").regardingReference())
			.isEqualTo(InvolvedObject.of("Node", "v1", null, "n1"));
		InvolvedObject.Adapter<String> byName = (name) -> InvolvedObject.of("Widget", "example.com/v1", "ns", name);
		EventSpec adapted = new EventSpec("w-1", ObjectRecorder.erase(byName), null, null, EventType.NORMAL, "R", null,
				"m", null);
		assertThat(adapted.regardingReference()).isEqualTo(InvolvedObject.of("Widget", "example.com/v1", "ns", "w-1"));
	}

	@Test
	void toRecordedEventNamesEachProblem() {
		Instant time = Instant.parse("2026-11-30T12:00:00Z");
		assertThat(problem(EventSpec.of(POD, null, "R", "m"), time))
			.isEqualTo("event type is null (must be Normal or Warning)");
		assertThat(problem(EventSpec.of(POD, EventType.NORMAL, null, "m"), time)).isEqualTo("reason is null");
		assertThat(problem(EventSpec.of(POD, EventType.NORMAL, "", "m"), time)).isEqualTo("reason is empty");
		assertThat(problem(EventSpec.of(null, EventType.NORMAL, "R", "m"), time)).isEqualTo("involved object is null");
		assertThat(problem(EventSpec.of("a string", EventType.NORMAL, "R", "m"), time))
			.isEqualTo("cannot reference an object of type java.lang.String: pass an InvolvedObject, an object of the"
					+ " official Java client (KubernetesObject) or a V1ObjectReference, or record with"
					+ " recorder.about(object, adapter)");
		assertThat(problem(EventSpec.of(new V1Pod().metadata(new V1ObjectMeta().namespace("ns")), EventType.NORMAL, "R",
				"m"), time)).isEqualTo("involved object has no metadata.name: V1Pod");
		InvolvedObject.Adapter<String> returnsNull = (name) -> null;
		assertThat(problem(new EventSpec("x", ObjectRecorder.erase(returnsNull), null, null, EventType.NORMAL, "R", null,
				"m", null), time)).isEqualTo("the InvolvedObject.Adapter returned null for java.lang.String");
	}

	@Test
	void aDecoratorCanPassAChangedCopyOn() {
		EventSpec spec = EventSpec.of(POD, EventType.NORMAL, "R", "m");
		EventSpec annotated = spec.withAnnotations(Map.of("team", "a"));
		assertThat(annotated.annotations()).containsExactly(Map.entry("team", "a"));
		assertThat(annotated.toRecordedEvent(TestEvents.SOURCE, Instant.EPOCH).annotations())
			.containsExactly(Map.entry("team", "a"));
		assertThat(spec.withAnnotations(null).annotations()).isEmpty();
	}

	private static String problem(EventSpec spec, Instant time) {
		Throwable thrown = catchThrowable(() -> spec.toRecordedEvent(TestEvents.SOURCE, time));
		assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
		return thrown.getMessage();
	}

}

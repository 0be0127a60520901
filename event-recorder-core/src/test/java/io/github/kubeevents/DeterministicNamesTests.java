package io.github.kubeevents;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deterministic Event names: the hash of the stream's identity (checked against SHA-256 values computed outside
 * Java), the readable prefix as a DNS-1123 subdomain within 253 characters, and which fields are part of the
 * identity and which are not.
 */
class DeterministicNamesTests {

	/** apimachinery's {@code dns1123SubdomainFmt}. */
	private static final Pattern DNS1123_SUBDOMAIN = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private static boolean valid(String name) {
		return name.length() <= 253 && DNS1123_SUBDOMAIN.matcher(name).matches();
	}

	@Test
	void theHashIsTheFirst128BitsOfTheSha256OfTheLengthPrefixedValues() {
		// python3: sha256(b'\x01' + len.to_bytes(4, 'big') + utf8 ...; None as b'\x00').hexdigest()[:32]
		assertThat(EventNames.streamHash("a")).isEqualTo("73d3812a1275f48e4d0e92ad97a01ded");
		assertThat(EventNames.streamHash("a", null)).isEqualTo("817f71ba32af653fd7e80e138944f679");
		assertThat(EventNames.streamHash("a", "")).isEqualTo("7b2c4dab5874fc03fd088691ce5bea0f");
		assertThat(EventNames.streamHash()).isEqualTo("e3b0c44298fc1c149afbf4c8996fb924");
		// the lengths keep the boundaries: "ab","c" is not "a","bc"
		assertThat(EventNames.streamHash("ab", "c")).isNotEqualTo(EventNames.streamHash("a", "bc"));
		assertThat(EventNames.forStream("web-0", "a")).isEqualTo("web-0.73d3812a1275f48e4d0e92ad97a01ded");
	}

	/**
	 * Each value's length is written in four bytes, big-endian: lengths of 256, 65,536 and 2^24 bytes set the
	 * second, third and first of them (python3 as above, for {@code "x" * n}).
	 */
	@Test
	void theLengthOfAValueIsWrittenInFourBytes() {
		assertThat(EventNames.streamHash("x".repeat(256))).isEqualTo("a7cc7820efd970d0f7b4d6cb177f6b67");
		assertThat(EventNames.streamHash("x".repeat(65_536))).isEqualTo("c18eb77a3134e52d8bf8c1955200c74c");
		assertThat(EventNames.streamHash("x".repeat(1 << 24))).isEqualTo("f255318eb5177425d7647b766bc3acc0");
	}

	@Test
	void thePrefixIsTheObjectNameMadeADns1123Subdomain() {
		assertThat(EventNames.streamPrefix("web-0")).isEqualTo("web-0");
		assertThat(EventNames.streamPrefix("web-0.example.com")).isEqualTo("web-0.example.com");
		assertThat(EventNames.streamPrefix("system:Node:Worker_1")).isEqualTo("system-node-worker-1");
		assertThat(EventNames.streamPrefix(".a..-b-.c.")).isEqualTo("a.b.c");
		assertThat(EventNames.streamPrefix("")).isEqualTo("event");
		assertThat(EventNames.streamPrefix("---")).isEqualTo("event");
		assertThat(EventNames.streamPrefix("Ünïcode😀x")).isEqualTo("n-code--x");
		assertThat(EventNames.streamPrefix("AZaz09")).isEqualTo("azaz09");
		// the characters just outside A-Z, a-z and 0-9
		assertThat(EventNames.streamPrefix("x@[`{/:x")).isEqualTo("x------x");
	}

	@Test
	void aLongNameIsCutTo220CharactersSoTheWholeNameHas253() {
		String name = EventNames.forStream("a".repeat(300), "x");
		assertThat(name).hasSize(253).startsWith("a".repeat(220) + ".");
		assertThat(valid(name)).isTrue();
		// a cut that ends on a dash or a dot drops it
		String cut = EventNames.streamPrefix("a".repeat(219) + "-b" + "c".repeat(50));
		assertThat(cut).isEqualTo("a".repeat(219));
		assertThat(EventNames.streamPrefix("a".repeat(219) + ".b")).isEqualTo("a".repeat(219));
	}

	@Test
	void everyNameIsAValidDns1123Subdomain() {
		Random random = new Random(19);
		String alphabet = "abcXYZ019.-_:/ é";
		for (int i = 0; i < 20_000; i++) {
			StringBuilder name = new StringBuilder();
			int length = random.nextInt(300);
			for (int j = 0; j < length; j++) {
				name.append(alphabet.charAt(random.nextInt(alphabet.length())));
			}
			String generated = EventNames.forStream(name.toString(), name.toString());
			assertThat(valid(generated)).as(generated).isTrue();
			assertThat(generated.length()).isLessThanOrEqualTo(253);
		}
	}

	/** The form of a stream's name: a last label of 32 lowercase hex digits, which no client-go name has. */
	static final Pattern STREAM_NAME = Pattern.compile(".*\\.[0-9a-f]{32}");

	@Test
	void streamNamesAreToldFromClientGosNames() {
		assertThat(EventNames.forStream("web-0", "x")).matches(STREAM_NAME);
		assertThat(EventNames.forStream("a".repeat(300), "x")).matches(STREAM_NAME);
		assertThat(EventNames.generate("web-0", TestEvents.TIME)).doesNotMatch(STREAM_NAME);
		assertThat(EventNames.generate("web-0.0123456789abcdef0123456789abcdef", TestEvents.TIME))
			.doesNotMatch(STREAM_NAME);
	}

	@Test
	void aSeriesPatchWithAResourceVersionCarriesItAsMetadata() {
		java.time.Instant time = java.time.Instant.parse("2026-12-02T15:00:00.123456789Z");
		assertThat(new io.github.kubeevents.sink.EventsV1Sink.SeriesPatch(3, time, "17").toMap()).containsExactly(
				Map.entry("metadata", Map.of("resourceVersion", "17")),
				Map.entry("series", Map.of("count", 3, "lastObservedTime", "2026-12-02T15:00:00.123456Z")));
		assertThat(new io.github.kubeevents.sink.EventsV1Sink.SeriesPatch(3, time).toMap()).containsOnlyKeys("series");
	}

	private static RecordedEvent recorded(String host, String message, InvolvedObject object) {
		return new RecordedEvent(object, null, EventType.WARNING, "BackOff", null, message, Map.of(),
				new EventSource("kubelet", host), TestEvents.TIME);
	}

	private static String coreV1(RecordedEvent recorded) {
		return DeterministicNames.coreV1(CoreV1Events.of(recorded), false);
	}

	@Test
	void coreV1NamesLeaveOutTheInstanceTheResourceVersionAndTheTime() {
		InvolvedObject pod = TestEvents.object("Pod", "web-0", "shop");
		String name = coreV1(recorded("node-1", "Back-off restarting", pod));
		assertThat(name).startsWith("web-0.").hasSize("web-0.".length() + 32);
		assertThat(coreV1(recorded("node-2", "Back-off restarting", pod))).isEqualTo(name);
		assertThat(coreV1(recorded("node-1", "Back-off restarting", pod.withResourceVersion("99")))).isEqualTo(name);
		RecordedEvent later = new RecordedEvent(pod, null, EventType.WARNING, "BackOff", null, "Back-off restarting",
				Map.of(), new EventSource("kubelet", "node-1"), TestEvents.TIME.plus(Duration.ofHours(1)));
		assertThat(coreV1(later)).isEqualTo(name);
	}

	@Test
	void coreV1NamesDependOnTheObjectsUidTheMessageTheReasonTheTypeAndTheComponent() {
		InvolvedObject pod = TestEvents.object("Pod", "web-0", "shop");
		String name = coreV1(recorded("node-1", "Back-off restarting", pod));
		assertThat(coreV1(recorded("node-1", "Back-off restarting", pod.withUid("other-uid")))).isNotEqualTo(name);
		assertThat(coreV1(recorded("node-1", "Back-off pulling", pod))).isNotEqualTo(name);
		assertThat(coreV1(recorded("node-1", "Back-off restarting", TestEvents.object("Pod", "web-0", "other"))))
			.isNotEqualTo(name);
		assertThat(coreV1(recorded("node-1", "Back-off restarting", TestEvents.object("Pod", "web-1", "shop"))))
			.isNotEqualTo(name);
		RecordedEvent otherReason = new RecordedEvent(pod, null, EventType.WARNING, "Failed", null,
				"Back-off restarting", Map.of(), new EventSource("kubelet", "node-1"), TestEvents.TIME);
		RecordedEvent otherType = new RecordedEvent(pod, null, EventType.NORMAL, "BackOff", null,
				"Back-off restarting", Map.of(), new EventSource("kubelet", "node-1"), TestEvents.TIME);
		RecordedEvent otherComponent = new RecordedEvent(pod, null, EventType.WARNING, "BackOff", null,
				"Back-off restarting", Map.of(), new EventSource("scheduler", "node-1"), TestEvents.TIME);
		assertThat(coreV1(otherReason)).isNotEqualTo(name);
		assertThat(coreV1(otherType)).isNotEqualTo(name);
		assertThat(coreV1(otherComponent)).isNotEqualTo(name);
	}

	@Test
	void anAggregateIsNamedWithoutItsMessage() {
		InvolvedObject pod = TestEvents.object("Pod", "web-0", "shop");
		CoreV1Event one = CoreV1Events.of(recorded("node-1", "(combined from similar events): a", pod));
		CoreV1Event two = CoreV1Events.of(recorded("node-2", "(combined from similar events): b", pod));
		assertThat(DeterministicNames.coreV1(one, true)).isEqualTo(DeterministicNames.coreV1(two, true))
			.isNotEqualTo(DeterministicNames.coreV1(one, false));
	}

	/**
	 * The identity value by value, pinned as names computed outside Java (python3 as above, over the values listed):
	 * a release that read one value differently would start a second Event for every stream in a rolling upgrade.
	 * core/v1: {@code "core/v1"}, the Event's namespace, the object's kind, namespace, name, uid, apiVersion and
	 * fieldPath, reason, type, message (or {@code (aggregate)}) and the source's component (else the reporting
	 * component).
	 */
	@Test
	void coreV1NamesArePinnedValueByValue() {
		CoreV1Event event = TestEvents.event("BackOff", "Back-off", TestEvents.ref("Pod", "web-0", "shop"));
		assertThat(DeterministicNames.coreV1(event, false)).isEqualTo("web-0.280fc9cf7e52c910a121ac6cfcd441d8");
		assertThat(DeterministicNames.coreV1(event, true)).isEqualTo("web-0.fdfe3e47c3ff995013d4e9015b4d1376");
		CoreV1Event reporting = TestEvents.event("BackOff", "Back-off", TestEvents.ref("Pod", "web-0", "shop"))
			.source(null)
			.reportingComponent("example.com/op");
		assertThat(DeterministicNames.coreV1(reporting, false)).isEqualTo("web-0.e287d8486c7a3c6786cd3ce2dccedd71");
		CoreV1Event withoutMetadata = TestEvents.event("BackOff", "Back-off", TestEvents.ref("Pod", "web-0", "shop"))
			.metadata(null);
		assertThat(DeterministicNames.coreV1(withoutMetadata, false))
			.isEqualTo("web-0.25ec40f43992ece2b978fd556c2cbafa");
	}

	private static EventsV1Event eventsV1(V1ObjectReference regarding, V1ObjectReference related) {
		return new EventsV1Event().metadata(new V1ObjectMeta().name("x").namespace("shop"))
			.regarding(regarding)
			.related(related)
			.reason("BackOff")
			.type("Warning")
			.action("Restart")
			.note("not in the name")
			.reportingController("example.com/op")
			.reportingInstance("not in the name either");
	}

	/**
	 * events.k8s.io/v1: {@code "events.k8s.io/v1"}, the Event's namespace, the regarding object's six values, reason,
	 * type, action, reporting controller, then {@code related} and the related object's six values, or {@code null}
	 * seven times without one (its name {@code ""}). An object without a name is {@code ""} too, and the prefix
	 * {@code event}.
	 */
	@Test
	void eventsV1NamesArePinnedValueByValue() {
		V1ObjectReference pod = TestEvents.ref("Pod", "web-0", "shop");
		assertThat(DeterministicNames.eventsV1(eventsV1(pod, null)))
			.isEqualTo("web-0.18b5add59e68db643171ad388dc85d58");
		assertThat(DeterministicNames.eventsV1(eventsV1(pod, TestEvents.ref("Node", "n1", null))))
			.isEqualTo("web-0.bf703864a86bbd56398dc9fb36f2b552");
		assertThat(DeterministicNames.eventsV1(eventsV1(TestEvents.ref("Pod", null, "shop"), null)))
			.isEqualTo("event.263809899cf6844092353426dd1b56a7");
		assertThat(DeterministicNames.eventsV1(eventsV1(null, null))).isEqualTo("event.b6ab45cd2df6b8e6faaef52bf1494d5e");
	}

	private static EventsV1Event eventsV1(String host, String note, String action, InvolvedObject related) {
		RecordedEvent recorded = new RecordedEvent(TestEvents.object("Pod", "web-0", "shop"), related,
				EventType.WARNING, "BackOff", action, note, Map.of(), new EventSource("kubelet", host),
				TestEvents.TIME);
		return EventsV1Events.of(recorded, note).event();
	}

	@Test
	void eventsV1NamesLeaveOutTheInstanceAndTheNoteAndKeepTheActionAndTheRelatedObject() {
		InvolvedObject node = TestEvents.object("Node", "n1", null);
		String name = DeterministicNames.eventsV1(eventsV1("node-1", "a", "Restart", null));
		assertThat(name).startsWith("web-0.").hasSize("web-0.".length() + 32);
		assertThat(DeterministicNames.eventsV1(eventsV1("node-2", "b", "Restart", null))).isEqualTo(name);
		assertThat(DeterministicNames.eventsV1(eventsV1("node-1", "a", "Pull", null))).isNotEqualTo(name);
		assertThat(DeterministicNames.eventsV1(eventsV1("node-1", "a", "Restart", node))).isNotEqualTo(name);
		// the same stream over the two APIs gets two names (two resources anyway)
		assertThat(coreV1(recorded("node-1", "a", TestEvents.object("Pod", "web-0", "shop")))).isNotEqualTo(name);
	}

}

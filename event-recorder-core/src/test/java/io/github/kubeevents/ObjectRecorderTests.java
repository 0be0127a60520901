package io.github.kubeevents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every method of {@link EventRecorder} and {@link ObjectRecorder} reaches {@link EventRecorder#record} with the
 * right {@link EventSpec}; the bound recorder formats only when arguments follow the message, and its
 * {@code related}/{@code action}/{@code with...} methods return new recorders.
 */
class ObjectRecorderTests {

	private static final InvolvedObject POD = InvolvedObject.of("Pod", "v1", "ns", "web-0");

	private static final InvolvedObject NODE = InvolvedObject.of("Node", "v1", null, "node-1");

	private final V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("web-0").namespace("ns"));

	private final Capturing recorder = new Capturing();

	/** Keeps the specs; records nothing. */
	static final class Capturing implements EventRecorder {

		final List<EventSpec> specs = new ArrayList<>();

		@Override
		public void record(EventSpec spec) {
			this.specs.add(spec);
		}

		EventSpec single() {
			assertThat(this.specs).hasSize(1);
			return this.specs.get(0);
		}

	}

	/** What a spec must hold; {@code args == null} means verbatim. */
	private static void assertSpec(EventSpec spec, Object regarding, InvolvedObject.Adapter<?> adapter,
			InvolvedObject related, Map<String, String> annotations, EventType type, String reason, String action,
			String message, Object[] args) {
		assertThat(spec.regarding()).isSameAs(regarding);
		assertThat((Object) spec.adapter()).isSameAs(adapter);
		assertThat(spec.related()).isEqualTo(related);
		assertThat(spec.annotations()).isEqualTo(annotations);
		assertThat(spec.type()).isEqualTo(type);
		assertThat(spec.reason()).isEqualTo(reason);
		assertThat(spec.action()).isEqualTo(action);
		assertThat(spec.message()).isEqualTo(message);
		if (args == null) {
			assertThat(spec.args()).isNullOrEmpty();
		}
		else {
			assertThat(spec.args()).containsExactly(args);
		}
	}

	@Test
	void eventOfAnInvolvedObjectIsVerbatim() {
		this.recorder.event(POD, EventType.NORMAL, "Started", "100% %s");
		assertSpec(this.recorder.single(), POD, null, null, Map.of(), EventType.NORMAL, "Started", null,
				"100% %s", null);
	}

	@Test
	void eventfOfAnInvolvedObjectCarriesItsArguments() {
		this.recorder.eventf(POD, EventType.WARNING, "Failed", "Error: %s", "boom");
		assertSpec(this.recorder.single(), POD, null, null, Map.of(), EventType.WARNING, "Failed", null,
				"Error: %s", new Object[] { "boom" });
	}

	@Test
	void eventfWithoutArgumentsIsVerbatimOnEveryEntryPoint() {
		FakeEventRecorder fake = new FakeEventRecorder();
		fake.eventf(this.pod, EventType.WARNING, "Full", "Disk 100% full");
		fake.eventf(POD, EventType.WARNING, "Full", "Disk 100% full", (Object[]) null);
		fake.annotatedEventf(this.pod, null, EventType.WARNING, "Full", "Disk 100% full");
		fake.event(this.pod, EventType.WARNING, "Full", "Disk 100% full");
		fake.about(this.pod).warning("Full", "Disk 100% full");
		assertThat(fake.events()).containsOnly("Warning Full Disk 100% full").hasSize(5);
		assertThat(fake.invalidInputs()).isEmpty();
	}

	@Test
	void annotatedEventfOfAnInvolvedObject() {
		this.recorder.annotatedEventf(POD, Map.of("k", "v"), EventType.NORMAL, "Created", "%d", 1);
		assertSpec(this.recorder.single(), POD, null, null, Map.of("k", "v"), EventType.NORMAL,
				"Created", null, "%d", new Object[] { 1 });
	}

	@Test
	void annotatedEventfWithNullAnnotationsHasNone() {
		this.recorder.annotatedEventf(POD, null, EventType.NORMAL, "Created", "m");
		assertThat(this.recorder.single().annotations()).isEmpty();
	}

	@Test
	void eventsStyleFieldsGoThroughTheBoundRecorder() {
		this.recorder.about(POD).related(NODE).action("Scheduling").warning("FailedScheduling", "%s", "no room");
		assertSpec(this.recorder.single(), POD, null, NODE, Map.of(), EventType.WARNING, "FailedScheduling",
				"Scheduling", "%s", new Object[] { "no room" });
	}

	@Test
	void anyReferenceableObjectIsTakenAsItIsAndReferencedWhenRecorded() {
		this.recorder.event(this.pod, EventType.NORMAL, "A", "verbatim %s");
		this.recorder.eventf(this.pod, EventType.NORMAL, "B", "f %s", "x");
		this.recorder.annotatedEventf(this.pod, Map.of("k", "v"), EventType.WARNING, "C", "a %s", "y");
		assertThat(this.recorder.specs).hasSize(3);
		assertSpec(this.recorder.specs.get(0), this.pod, null, null, Map.of(), EventType.NORMAL, "A", null,
				"verbatim %s", null);
		assertSpec(this.recorder.specs.get(1), this.pod, null, null, Map.of(), EventType.NORMAL, "B", null, "f %s",
				new Object[] { "x" });
		assertSpec(this.recorder.specs.get(2), this.pod, null, null, Map.of("k", "v"), EventType.WARNING, "C", null,
				"a %s", new Object[] { "y" });
		assertThat(this.recorder.specs.get(0).regardingReference())
			.isEqualTo(InvolvedObject.of("Pod", "v1", "ns", "web-0"));
	}

	@Test
	void boundRecorderFormatsOnlyWithArguments() {
		ObjectRecorder events = this.recorder.about(POD);
		events.warning("R", "100%");
		events.normal("R", "%s %d");
		events.event(EventType.WARNING, "R", "%d%%", 100);
		assertSpec(this.recorder.specs.get(0), POD, null, null, Map.of(), EventType.WARNING, "R", null,
				"100%", null);
		assertSpec(this.recorder.specs.get(1), POD, null, null, Map.of(), EventType.NORMAL, "R", null,
				"%s %d", null);
		assertSpec(this.recorder.specs.get(2), POD, null, null, Map.of(), EventType.WARNING, "R", null,
				"%d%%", new Object[] { 100 });
	}

	@Test
	void boundRecorderMessagesAsTheyAreRecorded() {
		FakeEventRecorder fake = new FakeEventRecorder();
		ObjectRecorder events = fake.about(this.pod);
		events.warning("Full", "Disk 100% full");
		events.warning("Full", "Disk %d%% full", 99);
		events.normal("Literal", "%s");
		events.normal("Null", "%s", (Object) null);
		assertThat(fake.events()).containsExactly("Warning Full Disk 100% full", "Warning Full Disk 99% full",
				"Normal Literal %s", "Normal Null null");
		assertThat(fake.invalidInputs()).isEmpty();
	}

	@Test
	void boundRecorderOfAKubernetesObjectAndOfAnAdaptedObject() {
		this.recorder.about(this.pod).normal("A", "m");
		InvolvedObject.Adapter<String> byName = (name) -> InvolvedObject.of("Widget", "example.com/v1", "ns", name);
		this.recorder.about("widget-1", byName).normal("B", "m");
		assertSpec(this.recorder.specs.get(0), this.pod, null, null, Map.of(), EventType.NORMAL,
				"A", null, "m", null);
		assertSpec(this.recorder.specs.get(1), "widget-1", byName, null, Map.of(), EventType.NORMAL, "B", null, "m",
				null);
	}

	@Test
	void relatedActionAndAnnotationsReturnNewRecordersAndLeaveTheOriginalAlone() {
		ObjectRecorder base = this.recorder.about(POD);
		ObjectRecorder related = base.related(NODE);
		ObjectRecorder withAction = related.action("Scheduling");
		ObjectRecorder annotated = withAction.withAnnotations(Map.of("a", "1", "b", "2"));
		ObjectRecorder overridden = annotated.withAnnotation("a", "3");
		assertThat(new Object[] { base, related, withAction, annotated, overridden }).doesNotHaveDuplicates();
		base.normal("R", "m");
		related.normal("R", "m");
		withAction.normal("R", "m");
		annotated.normal("R", "m");
		overridden.normal("R", "m");
		List<EventSpec> specs = this.recorder.specs;
		assertSpec(specs.get(0), POD, null, null, Map.of(), EventType.NORMAL, "R", null, "m", null);
		assertSpec(specs.get(1), POD, null, NODE, Map.of(), EventType.NORMAL, "R", null, "m", null);
		assertSpec(specs.get(2), POD, null, NODE, Map.of(), EventType.NORMAL, "R", "Scheduling", "m",
				null);
		assertSpec(specs.get(3), POD, null, NODE, Map.of("a", "1", "b", "2"), EventType.NORMAL, "R",
				"Scheduling", "m", null);
		assertSpec(specs.get(4), POD, null, NODE, Map.of("a", "3", "b", "2"), EventType.NORMAL, "R",
				"Scheduling", "m", null);
		ObjectRecorder cleared = overridden.related(null).action(null);
		cleared.normal("R", "m");
		assertSpec(specs.get(5), POD, null, null, Map.of("a", "3", "b", "2"), EventType.NORMAL, "R", null,
				"m", null);
	}

	@Test
	void annotationsGivenToTheBoundRecorderAreCopied() {
		Map<String, String> annotations = new HashMap<>(Map.of("a", "1"));
		ObjectRecorder annotated = this.recorder.about(POD).withAnnotations(annotations);
		annotations.put("b", "2");
		annotated.normal("R", "m");
		assertThat(this.recorder.single().annotations()).isEqualTo(Map.of("a", "1"));
	}

	@Test
	void annotationsWithoutKeyOrValueAreLeftOutWithAWarningAndNeverThrow() {
		Map<String, String> withNulls = new HashMap<>();
		withNulls.put("a", "1");
		withNulls.put("b", null);
		withNulls.put(null, "3");
		try (LogCapture log = LogCapture.of(EventRecorder.class, Level.WARN)) {
			this.recorder.about(POD)
				.withAnnotations(null)
				.withAnnotations(withNulls)
				.withAnnotation("c", null)
				.withAnnotation(null, "5")
				.withAnnotation("d", "4")
				.normal("R", "m");
			assertThat(log.warnings()).containsExactlyInAnyOrder(
					"Annotation b=null left out of the event: Kubernetes annotations need a key and a value",
					"Annotation null=3 left out of the event: Kubernetes annotations need a key and a value",
					"Annotation c=null left out of the event: Kubernetes annotations need a key and a value",
					"Annotation null=5 left out of the event: Kubernetes annotations need a key and a value");
		}
		assertThat(this.recorder.single().annotations()).isEqualTo(Map.of("a", "1", "d", "4"));
	}

	@Test
	void relatedKubernetesObjectIsReferencedOrLeftOutWhenItCannotBe() {
		V1Node node = new V1Node().metadata(new V1ObjectMeta().name("node-1").uid("u"));
		this.recorder.about(POD).related(node).normal("R", "m");
		assertThat(this.recorder.specs.get(0).related())
			.isEqualTo(new InvolvedObject("Node", "v1", null, "node-1", "u", null, null));
		KubernetesObject nameless = new V1Node().metadata(new V1ObjectMeta());
		this.recorder.about(POD).related(nameless).normal("R", "m");
		this.recorder.about(POD).related(null).normal("R", "m");
		this.recorder.about(POD).related("not an object").normal("R", "m");
		assertThat(this.recorder.specs.get(1).related()).isNull();
		assertThat(this.recorder.specs.get(2).related()).isNull();
		assertThat(this.recorder.specs.get(3).related()).isNull();
	}

	@Test
	void nullBoundObjectIsAnInvalidInputWhenRecorded() {
		FakeEventRecorder fake = new FakeEventRecorder();
		fake.about((Object) null).warning("R", "m");
		fake.about((InvolvedObject) null).warning("R", "m");
		fake.about(POD).event(null, "R", "m");
		fake.about(POD).normal(null, "m");
		assertThat(fake.events()).isEmpty();
		assertThat(fake.invalidInputs()).containsExactly("involved object is null", "involved object is null",
				"event type is null (must be Normal or Warning)", "reason is null");
	}

}

package io.github.kubeevents;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * Who reports an event: {@code source.component} / {@code source.host} of a core/v1 Event. The recorder also
 * copies them into {@code reportingComponent} / {@code reportingInstance}, as client-go does since 1.28.
 *
 * <p>The host matters to readers: the readers' shape writes a first occurrence with {@code eventTime} and
 * {@code action} only when {@code reportingInstance} (the host) is not empty (the API server's validation of
 * new-style Events), and events.k8s.io/v1 writes {@code <component>-<host>} as the instance. {@link #of(String)}
 * therefore never leaves it empty; an explicit {@code ""} is kept.
 *
 * <p>Immutable and thread-safe.
 *
 * @param component the reporting component, e.g. the controller's name; required, not blank
 * @param host the reporting host or instance, e.g. the pod name; {@code null} is stored as {@code ""}
 */
public record EventSource(String component, String host) {

	/**
	 * Validates the component and normalises a {@code null} host to {@code ""}; an unpaired surrogate in either is
	 * replaced with U+FFFD, as in a {@link RecordedEvent}'s text.
	 * @throws IllegalArgumentException when {@code component} is {@code null} or blank
	 */
	public EventSource {
		if (component == null || component.isBlank()) {
			throw new IllegalArgumentException("EventSource component must not be blank");
		}
		component = WireText.wellFormed(component);
		host = (host != null) ? WireText.wellFormed(host) : "";
	}

	/**
	 * A source on this process's host: {@code $POD_NAME}, else {@code $HOSTNAME}, else the machine's host name (as
	 * client-go's {@code os.Hostname()}; on Linux {@code /proc/sys/kernel/hostname}), else the component itself;
	 * never empty.
	 * @param component the reporting component
	 * @return the source
	 * @throws IllegalArgumentException when {@code component} is {@code null} or blank
	 */
	public static EventSource of(String component) {
		return new EventSource(component, defaultHost(System.getenv("POD_NAME"), System.getenv("HOSTNAME"), component));
	}

	/**
	 * The default host: {@code podName}, else {@code hostname}, else the machine's host name, else
	 * {@code component}; the first that is not blank, trimmed. The Spring Boot starter passes the
	 * {@code POD_NAME} and {@code HOSTNAME} of its environment. Thread-safe.
	 * @param podName the pod's name ({@code $POD_NAME}, from the downward API), or {@code null}
	 * @param hostname the {@code HOSTNAME} variable (set in containers, not exported by most shells), or {@code null}
	 * @param component the reporting component, the last resort
	 * @return a host that is never empty
	 */
	public static String defaultHost(@Nullable String podName, @Nullable String hostname, String component) {
		for (@Nullable String candidate : new @Nullable String[] { podName, hostname }) {
			if (candidate != null && !candidate.isBlank()) {
				return candidate.trim();
			}
		}
		return orComponent(machineHostName(), component);
	}

	/** The machine's host name, else (when none could be read) the component. */
	static String orComponent(String machineHostName, String component) {
		return machineHostName.isEmpty() ? component : machineHostName;
	}

	/**
	 * This machine's host name, as the kernel has it (Go's {@code os.Hostname()}): on Linux
	 * {@code /proc/sys/kernel/hostname}, elsewhere {@code $COMPUTERNAME} (Windows) or
	 * {@link InetAddress#getLocalHost()}. Read once per JVM; a shell does not export {@code HOSTNAME}, so off a pod
	 * this is what names the instance.
	 * @return the host name, or {@code ""} when none can be read
	 */
	static String machineHostName() {
		return MachineHost.NAME;
	}

	/** Reads the host name once, on first use (the lookup of {@code getLocalHost} may take seconds on some Macs). */
	private static final class MachineHost {

		static final String NAME = read();

		private static String read() {
			try {
				Path kernel = Path.of("/proc/sys/kernel/hostname");
				if (Files.isReadable(kernel)) {
					return Files.readString(kernel, StandardCharsets.UTF_8).trim();
				}
				String windows = System.getenv("COMPUTERNAME");
				if (windows != null && !windows.isBlank()) {
					return windows.trim();
				}
				return InetAddress.getLocalHost().getHostName().trim();
			}
			catch (IOException | RuntimeException ex) {
				return "";
			}
		}

	}

}

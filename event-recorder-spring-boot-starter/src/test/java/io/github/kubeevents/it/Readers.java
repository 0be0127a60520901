package io.github.kubeevents.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import okhttp3.Call;
import okhttp3.Response;
import org.opentest4j.TestAbortedException;

/**
 * The real readers of Events, built from their Go modules by {@code scripts/reader-assets.sh} (cached; versions
 * pinned there): {@code kubectl} v1.35 and our driver of the OpenTelemetry collector-contrib
 * {@code k8seventsreceiver}. {@code KUBE_EVENTS_READERS} names a directory holding both; without it the script
 * is run (it builds once per machine, then answers from its cache).
 */
final class Readers {

	private static volatile Path dir;

	private Readers() {
	}

	/** The directory holding {@code kubectl} and {@code otel-k8sevents-reader}. */
	static synchronized Path dir() {
		if (dir != null) {
			return dir;
		}
		String configured = System.getenv("KUBE_EVENTS_READERS");
		if (configured != null && !configured.isBlank()) {
			dir = Path.of(configured);
			return dir;
		}
		Path script = locateScript();
		// as EnvtestAssets: build only when asked (the build sets KUBEEVENTS_BUILD_ASSETS=true by default) or in CI
		boolean build = "true".equalsIgnoreCase(System.getenv("KUBEEVENTS_BUILD_ASSETS"))
				|| "true".equalsIgnoreCase(System.getenv("CI"));
		if (!build && exitCode(List.of("bash", script.toString(), "--cached-only")) == 3) {
			throw new TestAbortedException("The readers (kubectl, the OTel events receiver) are not built and"
					+ " KUBEEVENTS_BUILD_ASSETS is not true: run " + script + " once, or the build without"
					+ " -Dkubeevents.build-assets=false");
		}
		String out = run(List.of("bash", script.toString()), Duration.ofMinutes(30), false).trim();
		if (out.isEmpty()) {
			throw new IllegalStateException(script + " printed no directory");
		}
		dir = Path.of(out);
		return dir;
	}

	/** Runs {@code command}, its output dropped, and returns its exit code. */
	private static int exitCode(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!process.waitFor(5, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IllegalStateException(command + " did not end within 5 minutes");
			}
			return process.exitValue();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Runs {@code command} and returns its standard output (with its errors when {@code withErrors}, else they go
	 * to this JVM's).
	 * @throws IllegalStateException when it fails or outlives {@code timeout}
	 */
	private static String run(List<String> command, Duration timeout, boolean withErrors) {
		try {
			ProcessBuilder builder = new ProcessBuilder(command);
			if (withErrors) {
				builder.redirectErrorStream(true);
			}
			else {
				builder.redirectError(ProcessBuilder.Redirect.INHERIT);
			}
			Process process = builder.start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IllegalStateException(command + " failed: " + out);
			}
			return out;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static Path locateScript() {
		Path here = Path.of("").toAbsolutePath();
		for (Path p = here; p != null; p = p.getParent()) {
			Path script = p.resolve("scripts/reader-assets.sh");
			if (Files.isRegularFile(script)) {
				return script;
			}
		}
		throw new IllegalStateException("no scripts/reader-assets.sh above " + here + " and no KUBE_EVENTS_READERS");
	}

	/**
	 * Runs kubectl and returns its standard output.
	 * @param kubeconfig the kubeconfig file
	 * @param args the arguments after {@code --kubeconfig}
	 */
	static String kubectl(Path kubeconfig, String... args) {
		List<String> command = new ArrayList<>(List.of(dir().resolve("kubectl").toString(), "--kubeconfig",
				kubeconfig.toString()));
		command.addAll(List.of(args));
		return run(command, Duration.ofSeconds(60), true);
	}

	/** What a reader shows of one Event: its count ({@code null}: none shown) and last-seen time ({@code null}: none). */
	record Shown(Integer count, Instant lastSeen) {

		@Override
		public String toString() {
			return ((this.count != null) ? "x" + this.count : "no count") + ", "
					+ ((this.lastSeen != null) ? this.lastSeen.toString() : "no time");
		}

	}

	/** {@code 12s} or {@code 12s (x7 over 20s)}, as kubectl prints a last-seen cell. */
	private static final Pattern INTERVAL = Pattern.compile("(\\d+)s(?: \\(x(\\d+) over [^)]+\\))?");

	/**
	 * What kubectl shows in a row's last-seen cell, as an instant: {@code readAt} minus the age it printed (whole
	 * seconds, truncated), and the count it printed ({@code x7}), 1 when it prints none.
	 */
	static Shown kubectlCell(String cell, Instant readAt) {
		Matcher matcher = INTERVAL.matcher(cell.trim());
		if (!matcher.matches()) {
			return new Shown(null, null);
		}
		int count = (matcher.group(2) != null) ? Integer.parseInt(matcher.group(2)) : 1;
		return new Shown(count, readAt.minusSeconds(Long.parseLong(matcher.group(1))));
	}

	/**
	 * The row of {@code kubectl events} about {@code object} (e.g. {@code configmap/web}): its last-seen cell.
	 */
	static String eventsRow(String table, String object, String reason) {
		for (String line : table.split("\n")) {
			int at = line.indexOf(" " + object + " ");
			if (at > 0 && line.contains(" " + reason + " ")) {
				String head = line.substring(0, at).trim();
				// LAST SEEN   TYPE   REASON   OBJECT: the cell is what precedes the type
				int type = Math.max(head.lastIndexOf("Normal"), head.lastIndexOf("Warning"));
				return head.substring(0, type).trim();
			}
		}
		throw new AssertionError("no row about " + object + " (" + reason + ") in\n" + table);
	}

	/** The Age cell of the row with {@code reason} in the Events section of {@code kubectl describe}. */
	static String describeRow(String describe, String reason) {
		int events = describe.indexOf("Events:");
		if (events < 0) {
			throw new AssertionError("no Events section in\n" + describe);
		}
		Pattern row = Pattern.compile("^\\s+(?:Normal|Warning)\\s+" + Pattern.quote(reason)
				+ "\\s+(\\S+(?: \\(x\\d+ over [^)]+\\))?)\\s+.*$", Pattern.MULTILINE);
		Matcher matcher = row.matcher(describe.substring(events));
		if (!matcher.find()) {
			throw new AssertionError("no event " + reason + " in\n" + describe);
		}
		return matcher.group(1);
	}

	/** The Accept header that asks the API server for its Table of a list (server-side printing, as kubectl gets). */
	static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

	/**
	 * The API server's Table of the Events in {@code namespace}: what k9s renders ({@code internal/render/ev.go}
	 * draws the {@code metav1.TableRow}s) and {@code kubectl get events} prints, made by the server's
	 * {@code printEvent} ({@code pkg/printers/internalversion/printers.go}). The server always generates the wide
	 * columns, so {@code Count} is in it.
	 */
	static JsonObject serverTable(ApiClient client, String namespace) throws ApiException, IOException {
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", TABLE);
		Call call = client.buildCall(null, "/api/v1/namespaces/" + client.escapeString(namespace) + "/events", "GET",
				new ArrayList<>(), new ArrayList<>(), null, headers, new HashMap<>(), new HashMap<>(),
				new String[] { "BearerToken" }, null);
		try (Response response = call.execute()) {
			String body = response.body().string();
			if (!response.isSuccessful()) {
				throw new IllegalStateException("GET the Table of Events: " + response.code() + " " + body);
			}
			JsonObject table = JsonParser.parseString(body).getAsJsonObject();
			if (!"Table".equals(table.get("kind").getAsString())) {
				throw new IllegalStateException("the server answered no Table: " + body);
			}
			return table;
		}
	}

	/** {@code 12s}, as the server prints an age under 2 minutes ({@code duration.HumanDuration}). */
	private static final Pattern AGE = Pattern.compile("(\\d+)s");

	/**
	 * What the Table shows of the row about {@code object} ({@code configmap/web}) with {@code reason}: its
	 * {@code Count} cell, and its {@code Last Seen} cell (an age, whole seconds) as an instant, {@code readAt} minus
	 * that age; no time when the cell is no age ({@code <unknown>}).
	 */
	static Shown tableRow(JsonObject table, String object, String reason, Instant readAt) {
		List<String> columns = new ArrayList<>();
		table.getAsJsonArray("columnDefinitions")
			.forEach((c) -> columns.add(c.getAsJsonObject().get("name").getAsString()));
		int lastSeen = column(columns, "Last Seen");
		int count = column(columns, "Count");
		for (JsonElement element : table.getAsJsonArray("rows")) {
			JsonArray cells = element.getAsJsonObject().getAsJsonArray("cells");
			if (object.equals(cells.get(column(columns, "Object")).getAsString())
					&& reason.equals(cells.get(column(columns, "Reason")).getAsString())) {
				Matcher age = AGE.matcher(cells.get(lastSeen).getAsString());
				return new Shown(cells.get(count).getAsInt(),
						age.matches() ? readAt.minusSeconds(Long.parseLong(age.group(1))) : null);
			}
		}
		throw new AssertionError("no row about " + object + " (" + reason + ") in " + table);
	}

	private static int column(List<String> columns, String name) {
		int at = columns.indexOf(name);
		if (at < 0) {
			throw new AssertionError("no column " + name + " in " + columns);
		}
		return at;
	}

	/**
	 * Our driver of the OpenTelemetry collector's {@code k8seventsreceiver}: the log records it emits, one JSON line
	 * each, for one namespace.
	 */
	static final class OtelReceiver implements AutoCloseable {

		private final Process process;

		private final List<JsonObject> records = new CopyOnWriteArrayList<>();

		private volatile boolean ready;

		private final StringBuilder output = new StringBuilder();

		private OtelReceiver(Process process) {
			this.process = process;
			Thread reader = new Thread(this::read, "otel-k8sevents-reader-out");
			reader.setDaemon(true);
			reader.start();
		}

		static OtelReceiver start(Path kubeconfig, String namespace, Duration duration) throws IOException {
			Process process = new ProcessBuilder(dir().resolve("otel-k8sevents-reader").toString(), "--kubeconfig",
					kubeconfig.toString(), "--namespace", namespace, "--duration", duration.toSeconds() + "s")
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.start();
			OtelReceiver receiver = new OtelReceiver(process);
			ItSupport.awaiting().until(() -> receiver.ready || !process.isAlive());
			if (!receiver.ready) {
				throw new IllegalStateException("the OTel receiver did not start: " + receiver.output);
			}
			return receiver;
		}

		private void read() {
			try (BufferedReader in = new BufferedReader(
					new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = in.readLine()) != null) {
					synchronized (this.output) {
						this.output.append(line).append('\n');
					}
					if (!line.startsWith("{")) {
						continue;
					}
					JsonObject json = JsonParser.parseString(line).getAsJsonObject();
					if (json.has("ready")) {
						this.ready = true;
					}
					else {
						this.records.add(json);
					}
				}
			}
			catch (IOException ex) {
				// the process ended
			}
		}

		List<JsonObject> records() {
			return List.copyOf(this.records);
		}

		/** The last record about {@code objectName} with {@code reason}: what a log pipeline shows as latest. */
		Shown latest(String objectName, String reason) {
			JsonObject last = null;
			for (JsonObject record : this.records) {
				if (objectName.equals(string(record.getAsJsonObject("resource"), "k8s.object.name"))
						&& reason.equals(string(record.getAsJsonObject("attributes"), "k8s.event.reason"))) {
					last = record;
				}
			}
			if (last == null) {
				return new Shown(null, null);
			}
			String count = string(last.getAsJsonObject("attributes"), "k8s.event.count");
			String timestamp = string(last, "timestamp");
			return new Shown((count != null) ? Integer.valueOf(count) : null,
					(timestamp != null && !timestamp.isEmpty() && !timestamp.startsWith("1970"))
							? Instant.parse(timestamp) : null);
		}

		private static String string(JsonObject object, String key) {
			return (object != null && object.has(key) && !object.get(key).isJsonNull())
					? object.get(key).getAsString() : null;
		}

		@Override
		public void close() {
			this.process.destroy();
			try {
				if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
					this.process.destroyForcibly();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.process.destroyForcibly();
			}
		}

	}

}

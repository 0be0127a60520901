// Command otel-k8sevents-reader runs the OpenTelemetry Collector's k8seventsreceiver (collector-contrib
// receiver/k8seventsreceiver, built by scripts/reader-assets.sh at the version pinned there) on its own, and prints
// each log record it produces as one JSON line on stdout, so that integration tests can check what a real
// OpenTelemetry reader of Kubernetes Events makes of the events kube-events writes.
//
//	otel-k8sevents-reader --kubeconfig PATH [--namespace NS] [--duration 20s]
//
// stdout: {"ready":true} once the receiver has started, then one line per record:
//
//	{"timestamp":"…","observedTimestamp":"…","severity":"Normal","body":"<message>",
//	 "attributes":{"k8s.event.count":2,"k8s.event.reason":"…",…},"resource":{"k8s.object.kind":"Pod",…}}
//
// Timestamps are RFC 3339 (UTC, nanoseconds), empty when the record leaves them unset. The receiver's own
// behaviour is kept: it drops events whose time (eventTime, else lastTimestamp, else firstTimestamp) is before its
// start, and reports an updated event (a patched count) as a new record. Logs and errors go to stderr; a receiver
// that cannot start exits 1; after --duration (or on SIGINT/SIGTERM) it shuts down and exits 0.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8seventsreceiver"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/receiver/receivertest"
	"go.uber.org/zap"
)

type record struct {
	Timestamp         string         `json:"timestamp"`
	ObservedTimestamp string         `json:"observedTimestamp"`
	Severity          string         `json:"severity"`
	Body              string         `json:"body"`
	Attributes        map[string]any `json:"attributes"`
	Resource          map[string]any `json:"resource"`
}

// out writes one JSON document per line on stdout (unbuffered: each line reaches a reading test at once).
type out struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (o *out) print(v any) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.enc.Encode(v)
}

func timestamp(t pcommon.Timestamp) string {
	if t == 0 {
		return ""
	}
	return t.AsTime().UTC().Format(time.RFC3339Nano)
}

func (o *out) consume(_ context.Context, ld plog.Logs) error {
	for i := 0; i < ld.ResourceLogs().Len(); i++ {
		rl := ld.ResourceLogs().At(i)
		resource := rl.Resource().Attributes().AsRaw()
		for j := 0; j < rl.ScopeLogs().Len(); j++ {
			records := rl.ScopeLogs().At(j).LogRecords()
			for k := 0; k < records.Len(); k++ {
				lr := records.At(k)
				if err := o.print(record{
					Timestamp:         timestamp(lr.Timestamp()),
					ObservedTimestamp: timestamp(lr.ObservedTimestamp()),
					Severity:          lr.SeverityText(),
					Body:              lr.Body().AsString(),
					Attributes:        lr.Attributes().AsRaw(),
					Resource:          resource,
				}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "otel-k8sevents-reader:", err)
		os.Exit(1)
	}
}

func run() error {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file of the cluster to watch (required)")
	namespace := flag.String("namespace", "", "watch only this namespace (default: all namespaces)")
	duration := flag.Duration("duration", 0, "run this long, then shut down and exit 0 (default: until SIGINT/SIGTERM)")
	flag.Parse()
	if *kubeconfig == "" || flag.NArg() > 0 {
		flag.Usage()
		return errors.New("--kubeconfig PATH is required, and no arguments are taken")
	}
	// auth_type kubeConfig loads the kubeconfig through client-go's default loading rules, which read KUBECONFIG
	if err := os.Setenv("KUBECONFIG", *kubeconfig); err != nil {
		return err
	}

	factory := k8seventsreceiver.NewFactory()
	cfg := factory.CreateDefaultConfig().(*k8seventsreceiver.Config)
	// k8sconfig.AuthTypeKubeConfig (the package is internal to collector-contrib)
	cfg.AuthType = "kubeConfig"
	if *namespace != "" {
		cfg.Namespaces = []string{*namespace}
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("receiver config: %w", err)
	}

	logger, err := zap.NewProduction() // JSON lines on stderr
	if err != nil {
		return err
	}
	defer func() { _ = logger.Sync() }()
	settings := receivertest.NewNopSettings()
	settings.ID = component.NewID(factory.Type())
	settings.Logger = logger

	o := &out{enc: json.NewEncoder(os.Stdout)}
	o.enc.SetEscapeHTML(false)
	next, err := consumer.NewLogs(o.consume)
	if err != nil {
		return err
	}
	ctx := context.Background()
	rcv, err := factory.CreateLogs(ctx, settings, cfg, next)
	if err != nil {
		return fmt.Errorf("create receiver: %w", err)
	}
	if err := rcv.Start(ctx, componenttest.NewNopHost()); err != nil {
		return fmt.Errorf("start receiver: %w", err)
	}
	if err := o.print(map[string]bool{"ready": true}); err != nil {
		return err
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	var timeout <-chan time.Time
	if *duration > 0 {
		timeout = time.After(*duration)
	}
	select {
	case <-timeout:
	case <-stop:
	}
	if err := rcv.Shutdown(ctx); err != nil {
		return fmt.Errorf("shut down receiver: %w", err)
	}
	return nil
}

//! The opt-in span export: an OpenTelemetry tracer provider whose batch processor posts
//! spans as OTLP protobuf over HTTP (reqwest's blocking client, on the processor's own
//! thread), flushed when the guard is dropped.

use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};

use crate::TelemetryError;

/// How long one export may take before it is given up.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);

/// A running export.
pub(crate) struct Export {
    endpoint: String,
    provider: SdkTracerProvider,
}

impl Export {
    /// Starts exporting to `endpoint` (the full `/v1/traces` URL) as `service`.
    pub(crate) fn start(endpoint: &str, service: &str) -> Result<Export, TelemetryError> {
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(endpoint)
            .with_timeout(EXPORT_TIMEOUT)
            .build()
            .map_err(|e| TelemetryError::Otlp {
                endpoint: endpoint.to_string(),
                message: e.to_string(),
            })?;
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(
                Resource::builder_empty()
                    .with_service_name(service.to_string())
                    .build(),
            )
            .build();
        Ok(Export {
            endpoint: endpoint.to_string(),
            provider,
        })
    }

    pub(crate) fn tracer(&self) -> SdkTracer {
        self.provider.tracer("heddle")
    }

    pub(crate) fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Exports what is queued and stops; a failure is only logged (the process is ending).
    pub(crate) fn shutdown(self) {
        if let Err(error) = self.provider.shutdown() {
            tracing::warn!(endpoint = %self.endpoint, %error, "the span export did not finish");
        }
    }
}

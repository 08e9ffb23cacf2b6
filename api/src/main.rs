use api::config::Settings;
use api::{telemetry, Application};

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    api::map_large_allocations();
    telemetry::init();
    let settings = Settings::from_env().unwrap_or_else(|e| fail(&e));
    let app = Application::build(&settings).unwrap_or_else(|e| fail(&e));
    api::release_freed_memory();
    tracing::info!(
        port = app.port,
        database = %api::db::redact_url(&settings.database_url),
        "Kortbord listening; API docs at http://{}:{}/docs",
        settings.host,
        app.port
    );
    // SIGTERM and Ctrl-C stop accepting connections and let requests in flight finish.
    app.server.await
}

fn fail(message: &str) -> ! {
    tracing::error!("{message}");
    eprintln!("kortbord: {message}");
    std::process::exit(1)
}

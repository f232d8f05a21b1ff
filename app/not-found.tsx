import Link from "next/link";

export default function NotFound() {
  return (
    <section className="panel">
      <h1>Not found</h1>
      <p>
        There is nothing at this address. <Link href="/">Back to the fleet</Link>.
      </p>
    </section>
  );
}

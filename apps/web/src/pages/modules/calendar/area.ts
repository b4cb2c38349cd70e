export { default as CalendarPage } from './index';
export { default as EventEditPage } from './edit';
